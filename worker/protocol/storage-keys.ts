// The spec's "local storage" keys (§3), kept by the worker in IndexedDB, and the clearing rules (§4, decisions.md).

export const StorageKey = {
  token: 'token',
  dataInfo: 'dataInfo',
  phone: 'phone',
  loginId: 'loginId',
  path: 'path',
  previousPagePath: 'previousPagePath',
  updateIndex: 'updateIndex',
  merchantSign: 'merchantSign',
  channelCode: 'channelCode',
  isUpdate: 'isUpdate',
  cardCouponPush: 'cardCouponPush',
  paymentPopupVisible: 'paymentPopupVisible',
  isSwitchExit: 'isSwitchExit',
  /** the per-browser UUID: push deviceId, visit-log uuid, "device stat id". */
  deviceStatId: 'deviceStatId',
  devServerLogLevel: 'devServerLogLevel',
  windowHeight: 'windowHeight',
  statusBarHeight: 'statusBarHeight',
  /** ours (issue 40): the core's keyed writes not yet answered (worker/http/write-log.ts); cleared on exit with the rest. */
  pendingWrites: 'pendingWrites',
} as const
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey]

/** First launch (no isUpdate) keeps exactly these (decisions.md). */
export const KEPT_ON_FIRST_LAUNCH: ReadonlyArray<StorageKey> = [StorageKey.deviceStatId, StorageKey.devServerLogLevel]
/** The exit action keeps exactly these (§4, decisions.md). */
export const KEPT_ON_EXIT: ReadonlyArray<StorageKey> = [
  StorageKey.deviceStatId, StorageKey.devServerLogLevel, StorageKey.isUpdate, StorageKey.merchantSign,
]

/**
 * Keys a tab may read and write through the core (navigation bookkeeping and the status bar height), each one read
 * somewhere. isSwitchExit is the core's: it sets it around a sign-in that replaces a session (worker/session/session.ts).
 * updateIndex, paymentPopupVisible and the window height are §3 keys no rule reads: not written (the update index is
 * the tab's own state, src/store/tab-slice.ts); still cleared on exit with every key not kept.
 */
export const TAB_WRITABLE_KEYS = [StorageKey.path, StorageKey.previousPagePath, StorageKey.statusBarHeight] as const
export type TabWritableKey = (typeof TAB_WRITABLE_KEYS)[number]

/** The default of the cardCouponPush counters (§3). */
export const EMPTY_CARD_COUPON = { my: 0, activationCode: 0, coupon: 0 } as const
