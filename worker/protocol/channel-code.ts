// The channelCode a link carries is sent on every API call as a header, so only a short token of letters, digits,
// `_` and `-` is accepted (issue 11 finding 12): CR/LF or non-Latin-1 text would make every call of the tab fail.
export const CHANNEL_CODE = /^[\w-]{1,64}$/

/** The code when it is acceptable, else null (as if the link carried none). */
export const validChannelCode = (value: string | null | undefined): string | null =>
  typeof value === 'string' && CHANNEL_CODE.test(value) ? value : null
