// The push socket's path, its frame types and the client's heartbeat frame, free of Schema (the worker opens the
// socket and decodes frames before it loads any schema; the frames' schemas, built on these, are in push.ts).
export const PUSH_PATH = '/push'

/** §4: the seven server -> client push types; PushType (push.ts) and the worker's frame decoder both read this list. */
export const PUSH_TYPES = [
  'changeCard',
  'forcedOfflineMsg',
  'sendActivationCode',
  'sendCouponMsg',
  'systemAnnouncementMsg',
  'removeAuth',
  'refreshCloudPhoneList',
] as const

/** The client's heartbeat frame; the server answers with the same type. */
export const keepAliveFrame = (): string => JSON.stringify({ type: 'keepAlive', data: {} })
