// Chinese refusals of the hardening rules (throttling, request limits), one home for each.

export const texts = {
  throttled: (seconds: number) => `尝试次数过多，请${seconds >= 120 ? `${Math.ceil(seconds / 60)}分钟` : `${seconds}秒`}后再试`,
  bodyTooLarge: '请求内容过大',
} as const
