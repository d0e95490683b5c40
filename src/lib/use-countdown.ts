// React hook over the verification-code countdown: start() after a code was sent, ticks once a second.
import { useCallback, useEffect, useState } from 'react'
import { countdownDisabled, countdownIdle, countdownText, startCountdown, tickCountdown } from './countdown.ts'

export interface Countdown {
  readonly text: string
  readonly disabled: boolean
  start(): void
}

export const useCountdown = (seconds?: number): Countdown => {
  const [state, setState] = useState(countdownIdle)
  useEffect(() => {
    if (state.remaining <= 0) return
    const timer = setTimeout(() => setState(tickCountdown), 1000)
    return () => clearTimeout(timer)
  }, [state])
  const start = useCallback(() => setState(startCountdown(seconds)), [seconds])
  return { text: countdownText(state), disabled: countdownDisabled(state), start }
}
