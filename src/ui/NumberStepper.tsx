// A whole-number stepper (− field +) whose field is labelled and whose buttons are named. antd-mobile's Stepper puts
// its spinbutton attributes on a wrapper div and leaves the field without a label.
import { useEffect, useState } from 'react'
import { zhCN } from '../i18n/zh-CN.ts'
import './number-stepper.css'

export interface NumberStepperProps {
  /** the field's accessible name (the visible heading next to it). */
  readonly label: string
  readonly value: number
  readonly min: number
  readonly max: number
  readonly disabled?: boolean
  readonly onChange: (value: number) => void
  readonly testId?: string
}

export const NumberStepper = ({ label, value, min, max, disabled = false, onChange, testId }: NumberStepperProps) => {
  // what is typed stays as typed until it is a whole number in range; leaving the field shows the value again
  const [draft, setDraft] = useState(String(value))
  useEffect(() => setDraft(String(value)), [value])
  const commit = (text: string) => {
    setDraft(text)
    const n = Number(text)
    if (text !== '' && Number.isInteger(n) && n >= min && n <= max) onChange(n)
  }
  return (
    <div className="number-stepper" data-testid={testId}>
      <button type="button" aria-label={zhCN.app.decrease} disabled={disabled || value <= min} onClick={() => onChange(value - 1)}>
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        aria-label={label}
        min={min}
        max={max}
        step={1}
        value={draft}
        disabled={disabled}
        onChange={(e) => commit(e.target.value)}
        onBlur={() => setDraft(String(value))}
      />
      <button type="button" aria-label={zhCN.app.increase} disabled={disabled || value >= max} onClick={() => onChange(value + 1)}>
        +
      </button>
    </div>
  )
}
