// Chinese refusals of the hardening rules (throttling, request limits), one home for each.

const wait = (seconds: number) => (seconds >= 120 ? `${Math.ceil(seconds / 60)}分钟` : `${seconds}秒`)

export const texts = {
  throttled: (seconds: number) => `尝试次数过多，请${wait(seconds)}后再试`,
  /** the password login's lockout: the account can still sign in with an SMS code (issue 22 finding 6). */
  loginThrottled: (seconds: number) => `密码错误次数过多，请${wait(seconds)}后再试，或使用验证码登录`,
  bodyTooLarge: '请求内容过大',
  /** group control's volume limit (issue 41 finding 9). */
  groupThrottled: (seconds: number) => `群控操作过于频繁，请${wait(seconds)}后再试`,
} as const
