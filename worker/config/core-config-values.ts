// The core's configuration values and the test-only override carried in the worker name; free of Effect so the
// tab can import it without pulling the runtime into its bundle.
import {
  CHANGE_CARD_REDIRECT_DELAY_MS, CHANGE_CARD_TOAST_DELAY_MS, ELSEWHERE_TOAST_DELAY_MS, ERROR_MSG_TOAST_DELAY_MS,
  EVENT_LOG_LIMIT, EXIT_REDIRECT_DELAY_MS, HEARTBEAT_INTERVAL_MS, MAINTENANCE_POLL_MS, RECONNECT_INTERVAL_MS,
  PERSIST_MAX_DELAY_MS, PERSIST_QUIET_MS, RECONNECT_MAX_ATTEMPTS, REMOVE_AUTH_MODAL_DELAY_MS, REQUEST_TIMEOUT_MS, TAB_INFLIGHT_LIMIT, TAB_QUEUE_LIMIT,
} from '../protocol/constants.ts'

export interface CoreConfigShape {
  /** origin the API paths and the push socket are resolved against. */
  readonly apiBaseUrl: string
  /** origin of the maintenance host (getMaintenanceHostMsg); the reference server serves it on its own origin. */
  readonly maintenanceBaseUrl: string
  /** IndexedDB database holding the storage keys and the persisted projection. */
  readonly dbName: string
  readonly requestTimeoutMs: number
  readonly heartbeatMs: number
  readonly reconnectMs: number
  readonly reconnectMaxAttempts: number
  readonly maintenancePollMs: number
  readonly exitRedirectDelayMs: number
  readonly errorToastDelayMs: number
  readonly elsewhereToastDelayMs: number
  readonly changeCardToastDelayMs: number
  readonly changeCardRedirectDelayMs: number
  readonly removeAuthModalDelayMs: number
  readonly eventLogLimit: number
  readonly tabQueueLimit: number
  readonly tabInflightLimit: number
  readonly persistQuietMs: number
  readonly persistMaxDelayMs: number
}

/** The keys a test config may override (everything but the spec's counts and texts). */
export type CoreTestConfig = Partial<Omit<CoreConfigShape, 'reconnectMaxAttempts'>> & {
  /** isolates the worker (and its database) per test. */
  readonly workerName?: string
  /** run the core in a dedicated Worker even where SharedWorker exists. */
  readonly forceDedicated?: boolean
  readonly pingIntervalMs?: number
  readonly pingTimeoutMs?: number
  /** WORKER_RESTART_TIMEOUT_MS */
  readonly restartTimeoutMs?: number
}

export const defaultCoreConfig = (apiBaseUrl: string, dbName = 'cloud-phone-core'): CoreConfigShape => ({
  apiBaseUrl,
  maintenanceBaseUrl: apiBaseUrl,
  dbName,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  heartbeatMs: HEARTBEAT_INTERVAL_MS,
  reconnectMs: RECONNECT_INTERVAL_MS,
  reconnectMaxAttempts: RECONNECT_MAX_ATTEMPTS,
  maintenancePollMs: MAINTENANCE_POLL_MS,
  exitRedirectDelayMs: EXIT_REDIRECT_DELAY_MS,
  errorToastDelayMs: ERROR_MSG_TOAST_DELAY_MS,
  elsewhereToastDelayMs: ELSEWHERE_TOAST_DELAY_MS,
  changeCardToastDelayMs: CHANGE_CARD_TOAST_DELAY_MS,
  changeCardRedirectDelayMs: CHANGE_CARD_REDIRECT_DELAY_MS,
  removeAuthModalDelayMs: REMOVE_AUTH_MODAL_DELAY_MS,
  eventLogLimit: EVENT_LOG_LIMIT,
  tabQueueLimit: TAB_QUEUE_LIMIT,
  tabInflightLimit: TAB_INFLIGHT_LIMIT,
  persistQuietMs: PERSIST_QUIET_MS,
  persistMaxDelayMs: PERSIST_MAX_DELAY_MS,
})

const NUMERIC_OVERRIDES = [
  'requestTimeoutMs', 'heartbeatMs', 'reconnectMs', 'maintenancePollMs', 'exitRedirectDelayMs', 'errorToastDelayMs',
  'elsewhereToastDelayMs', 'changeCardToastDelayMs', 'changeCardRedirectDelayMs', 'removeAuthModalDelayMs',
  'eventLogLimit', 'tabQueueLimit', 'tabInflightLimit', 'persistQuietMs',
  'persistMaxDelayMs',
] as const

/** Applies a test config; unknown or ill-typed keys are ignored so a typo cannot change a default silently to NaN. */
export const withTestConfig = (base: CoreConfigShape, test: CoreTestConfig | null): CoreConfigShape => {
  if (test === null) return base
  const out: Record<string, unknown> = { ...base }
  for (const key of NUMERIC_OVERRIDES) {
    const v = test[key]
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = v
  }
  if (typeof test.apiBaseUrl === 'string' && test.apiBaseUrl !== '') out.apiBaseUrl = out.maintenanceBaseUrl = test.apiBaseUrl
  if (typeof test.maintenanceBaseUrl === 'string' && test.maintenanceBaseUrl !== '') out.maintenanceBaseUrl = test.maintenanceBaseUrl
  if (typeof test.dbName === 'string' && test.dbName !== '') out.dbName = test.dbName
  else if (typeof test.workerName === 'string') out.dbName = `${base.dbName}:${test.workerName}`
  return out as unknown as CoreConfigShape
}

/**
 * The worker's `name` carries the test config: plain CORE_WORKER_NAME normally, or JSON {name, config} in tests
 * (a different config is a different worker, which is what isolation wants).
 */
export const encodeWorkerName = (name: string, config: CoreTestConfig | null): string =>
  config === null ? name : JSON.stringify({ name, config })

export const decodeWorkerName = (workerName: string): CoreTestConfig | null => {
  if (!workerName.startsWith('{')) return null
  try {
    const parsed = JSON.parse(workerName) as { config?: unknown }
    return typeof parsed.config === 'object' && parsed.config !== null ? (parsed.config as CoreTestConfig) : null
  } catch {
    return null
  }
}

