// Form fields of the SMS-code screens over plain native inputs (so tests and password managers reach them): phone,
// code with the countdown button, password with a show toggle, and a field's error line.
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons'
import { useState } from 'react'
import { CODE_LENGTH } from '../../../worker/protocol/constants.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import type { Countdown } from '../../lib/use-countdown.ts'
import { cleanCode, cleanPhone } from './auth-form.ts'
import '../../ui/form.css'
import './auth.css'

export const FieldError = ({ text, testId }: { text?: string | undefined; testId?: string }) => (
  <div className="field-error" role="alert" data-testid={testId}>{text}</div>
)

interface TextFieldProps {
  readonly value: string
  readonly onChange: (value: string) => void
  readonly testId: string
  readonly placeholder: string
}

export const PhoneField = ({ value, onChange, testId, placeholder }: TextFieldProps) => (
  <label className="field">
    <input
      data-testid={testId} type="tel" inputMode="numeric" autoComplete="tel" maxLength={11}
      placeholder={placeholder} aria-label={placeholder}
      value={value} onChange={(e) => onChange(cleanPhone(e.target.value))}
    />
  </label>
)

export const CodeField = ({ value, onChange, testId, placeholder, countdown, sending, onSend }: TextFieldProps & {
  readonly countdown: Countdown
  readonly sending: boolean
  readonly onSend: () => void
}) => (
  <label className="field">
    <input
      data-testid={testId} type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={CODE_LENGTH}
      placeholder={placeholder} aria-label={placeholder}
      value={value} onChange={(e) => onChange(cleanCode(e.target.value))}
    />
    <button
      type="button" className="code-button" data-testid={`${testId}-send`}
      disabled={countdown.disabled || sending} onClick={onSend}
    >
      {sending ? zhCN.auth.sending : countdown.text}
    </button>
  </label>
)

export const PasswordField = ({ value, onChange, testId, placeholder, autoComplete = 'new-password' }: TextFieldProps & {
  readonly autoComplete?: string
}) => {
  const [visible, setVisible] = useState(false)
  return (
    <label className="field">
      <input
        data-testid={testId} type={visible ? 'text' : 'password'} autoComplete={autoComplete} maxLength={16}
        placeholder={placeholder} aria-label={placeholder}
        value={value} onChange={(e) => onChange(e.target.value)}
      />
      <button
        type="button" className="field-icon" data-testid={`${testId}-toggle`}
        aria-label={visible ? zhCN.login.hidePassword : zhCN.login.showPassword}
        onClick={() => setVisible((x) => !x)}
      >
        {visible ? <EyeOutline /> : <EyeInvisibleOutline />}
      </button>
    </label>
  )
}

export const TextField = ({ value, onChange, testId, placeholder, maxLength }: TextFieldProps & { readonly maxLength?: number }) => (
  <label className="field">
    <input
      data-testid={testId} type="text" autoComplete="off" maxLength={maxLength}
      placeholder={placeholder} aria-label={placeholder}
      value={value} onChange={(e) => onChange(e.target.value.trim())}
    />
  </label>
)
