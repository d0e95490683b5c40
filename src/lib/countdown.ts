// The verification-code button's countdown (§5, decisions.md): 获取验证码, 60秒重新获取 … 1秒重新获取, then 重新获取.
import { SMS_COUNTDOWN_S } from '../../worker/protocol/constants.ts'
import { zhCN } from '../i18n/zh-CN.ts'

/** remaining = 0 and started = false: never sent; remaining > 0: counting; remaining = 0 and started: may resend. */
export interface CountdownState {
  readonly remaining: number
  readonly started: boolean
}

export const countdownIdle: CountdownState = { remaining: 0, started: false }

export const startCountdown = (seconds: number = SMS_COUNTDOWN_S): CountdownState => ({ remaining: seconds, started: true })

export const tickCountdown = (state: CountdownState): CountdownState =>
  state.remaining > 0 ? { ...state, remaining: state.remaining - 1 } : state

export const countdownText = (state: CountdownState): string =>
  state.remaining > 0 ? zhCN.smsCode.counting(state.remaining) : state.started ? zhCN.smsCode.again : zhCN.smsCode.idle

export const countdownDisabled = (state: CountdownState): boolean => state.remaining > 0
