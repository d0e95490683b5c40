// Every number and header value the spec fixes, named once (product-spec.md sections cited per constant).

/** §9 base path the app is served under. */
export const BASE_PATH = '/cloud/phone/web/'
/** §7 all API paths sit under this prefix on the API host (same origin for the reference server). */
export const API_PREFIX = ''

/** §7 headers every request carries. */
export const HEADER_CLIENT = '7'
export const HEADER_VERSION_NAME = '5.9.2'
export const HEADER_MERCHANT_SIGN = 'SPW'
/** §7 the visit-log call also sends `versions: 5.1`. */
export const HEADER_VISIT_LOG_VERSIONS = '5.1'

/** §7, §9 request, upload and download timeout. */
export const REQUEST_TIMEOUT_MS = 60_000
/** §7 body status codes that count as success. */
export const SUCCESS_CODES: ReadonlyArray<number> = [0, 5106, 5200, 5002, 2300]

/** §8 error codes that end the session. */
export const CODE_ELSEWHERE_LOGIN = 6013
export const CODE_LOGIN_EXPIRED = 6014
export const CODES_OTHER_CLIENT: ReadonlyArray<number> = [2, 4]
export const CODE_USER_CANCELLED = 3004
/** §8 toast delays. */
export const ELSEWHERE_TOAST_DELAY_MS = 500
export const ERROR_MSG_TOAST_DELAY_MS = 500

/** §4, §9 push connection timers. */
export const HEARTBEAT_INTERVAL_MS = 8_000
export const RECONNECT_INTERVAL_MS = 20_000
export const RECONNECT_MAX_ATTEMPTS = 5
/** §4, §9 changeCard toast and redirect delays. */
export const CHANGE_CARD_TOAST_DELAY_MS = 500
export const CHANGE_CARD_REDIRECT_DELAY_MS = 1_500
/** §4 removeAuth modal delay after going home. */
export const REMOVE_AUTH_MODAL_DELAY_MS = 500
/** §4 exit action: go to login after this delay. */
export const EXIT_REDIRECT_DELAY_MS = 500

/** §4, §9 maintenance poll: next check this long after each check. */
export const MAINTENANCE_POLL_MS = 300_000

/** §1, §9 title retry. */
export const TITLE_RETRY_INTERVAL_MS = 50
export const TITLE_RETRY_MAX = 5

/** §5, §9 verification code countdown and code length. */
export const SMS_COUNTDOWN_S = 60
export const CODE_LENGTH = 6
/** §9 toast default duration. */
export const TOAST_DURATION_MS = 2_000
/** A tab that attaches this soon after an exit (it was reloading, say) still tells the user why (decisions.md). */
export const RECENT_EXIT_MS = 10_000

/** §8, §9 lazy screen loading. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000
export const ASYNC_SCREEN_DELAY_MS = 200
export const ASYNC_SCREEN_TIMEOUT_MS = 60_000

/** §1 custom navigation bar height = status bar height + this. */
export const NAVBAR_EXTRA_ANDROID = 50
export const NAVBAR_EXTRA_OTHER = 45

/** api-notes: connect returns 5200 while the device starts; retry every 1 s up to 30 times. */
export const CONNECT_RETRY_CODE = 5200
export const CONNECT_RETRY_INTERVAL_MS = 1_000
export const CONNECT_RETRY_MAX = 30
/** api-notes: remaining time turns red at or below 3 days (in minutes). */
export const VALID_TIME_WARN_MINUTES = 4_320
/** api-notes: at most 60 devices per account. */
export const MAX_DEVICES_PER_ACCOUNT = 60

/** §9 the primary colour; stylesheets read it as var(--app-brand) (src/ui/app.css), canvas drawing from here. */
export const PRIMARY_COLOR = '#3c9cff'

/** Default images for the special previewUrl values "default" and "defaultPhonePreviewUrl" (§3, decisions.md). */
export const DEFAULT_PHONE_IMAGE_URL = '/cloud/phone/web/static/default-phone.png'
export const DEFAULT_PHONE_TYPE_IMAGE_URL = '/cloud/phone/web/static/default-phone-type.png'

/** Routes the push rules look at (§2, §4). */
export const HOME_PATH = '/pages/index/index'
export const HOME_PATHS: ReadonlyArray<string> = [HOME_PATH, '/']
export const VIEWER_PATH = '/package/cloudPhoneView/cloudPhoneView'
export const LOGIN_PATH = '/pages/login/login'

/** Name of the shared worker hosting the core (one per browser profile). */
export const CORE_WORKER_NAME = 'cloud-phone-core'
/** State events the worker keeps in memory for tabs that are behind; further behind gets a snapshot. */
export const EVENT_LOG_LIMIT = 500
/** Effect events (toasts, navigations) kept for a tab that takes no batches; older ones are dropped. */
export const TAB_QUEUE_LIMIT = 1_000
/**
 * Unacknowledged batches per tab. Small on purpose: while the window is full, new events wait in the log and go out
 * together once the tab acknowledges, so a flood becomes a few large batches instead of a message per event. The
 * batch that fills the window asks for the ack, so a tab answers one batch in this many.
 */
export const TAB_INFLIGHT_LIMIT = 4
/**
 * The projection is written to IndexedDB once it has not changed for PERSIST_QUIET_MS, and at the latest
 * PERSIST_MAX_DELAY_MS after its first unwritten change while pushes keep coming (worker/events/snapshot-writer.ts).
 */
export const PERSIST_QUIET_MS = 40
export const PERSIST_MAX_DELAY_MS = 1_000
/** Tab-side liveness check of the worker: ping every interval, dead after the timeout. */
export const WORKER_PING_INTERVAL_MS = 3_000
export const WORKER_PING_TIMEOUT_MS = 5_000
/** A worker that has not sent its first batch this long after it was started is replaced. */
export const WORKER_START_TIMEOUT_MS = 30_000
/**
 * A worker started to replace a dead one that has not run its script (told its lifetime lock) this long after it was
 * started is replaced too: it was killed while loading (issue 21), which nothing else reveals. Its script was just
 * loaded for the worker it replaces, so this is short; a page's first worker gets WORKER_START_TIMEOUT_MS.
 */
export const WORKER_RESTART_TIMEOUT_MS = 3_000

/** Page records sent in one reportRecords call (issue 8 analytics); here, free of Effect, so the tab can import it. */
export const RECORDS_PER_REPORT = 50

/** Ad places we serve (getAdInfoByAdPlace); the home pop-up is the only one the app shows. */
export const AD_PLACE_HOME_POPUP = 1
