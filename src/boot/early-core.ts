// Issue 12: index.html starts the tab's boot before the entry's JS has loaded: it requests this tab's lifetime lock
// and starts the core's SharedWorker, so the lock's grant, the worker's script, its IndexedDB read and the first
// snapshot overlap the tab's own loading instead of following it. connectCore then takes both. The worker starts this
// way only for the product's core: a page with a test configuration (__CORE_TEST_CONFIG__, another worker name) or
// without SharedWorker starts its core as before; a page without this script (the dev server) boots as before.
import { CORE_WORKER_NAME } from '../../worker/protocol/constants.ts'
import { tabLockName } from '../../worker/protocol/tab-lock.ts'
import { requestLifetimeLock } from '../core/tab-lock.ts'
import { CHANNEL_CODE_SESSION_KEY } from './entry-url.ts'

export interface EarlyBoot {
  tab: { readonly tabId: string; readonly lock: Promise<() => void> } | null
  worker: SharedWorker | null
  failed: boolean
}

/** Runs in index.html before any module, serialised: self-contained, it gets every name it needs as an argument. */
function bootEarly(workerUrl: string, workerName: string, lockPrefix: string, lifetimeLock: (name: string) => Promise<() => void>, channelCodeKey: string): void {
  const scope = globalThis as { __CORE_TEST_CONFIG__?: unknown; __earlyBoot?: EarlyBoot }
  const tabId = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : null
  const early: EarlyBoot = { tab: tabId === null ? null : { tabId, lock: lifetimeLock(lockPrefix + tabId) }, worker: null, failed: false }
  scope.__earlyBoot = early
  if (typeof SharedWorker === 'function' && scope.__CORE_TEST_CONFIG__ === undefined) {
    try {
      const worker = new SharedWorker(workerUrl, { type: 'module', name: workerName })
      worker.onerror = () => { early.failed = true }
      early.worker = worker
    } catch {
      early.failed = true
    }
  }
  // The page's first sessionStorage access loads the tab's storage with a synchronous round trip to the browser,
  // whose main thread is busiest while a page loads (46-103 ms here under Lighthouse). Made here, it delays the
  // first paint instead of blocking the painted page; the entry's read of the tab's channelCode (resolveChannelCode)
  // is then served from the loaded storage.
  try {
    sessionStorage.getItem(channelCodeKey)
  } catch {
    // storage disabled: the entry's own read meets the same error
  }
}

/** The inline script vite.config.ts puts in index.html; `workerUrl` is the built worker entry's URL. */
export const earlyBootScript = (workerUrl: string): string =>
  `(${bootEarly.toString()})(${JSON.stringify(workerUrl)},${JSON.stringify(CORE_WORKER_NAME)},${JSON.stringify(tabLockName(''))},${requestLifetimeLock.toString()},${JSON.stringify(CHANNEL_CODE_SESSION_KEY)})`

const early = (): EarlyBoot | null => (globalThis as { __earlyBoot?: EarlyBoot }).__earlyBoot ?? null

/** This tab's id and its lifetime lock: the ones index.html requested, once; else a new id, locked from here. */
export const takeTabLock = (): { tabId: string; lock: Promise<() => void> } => {
  const boot = early()
  const tab = boot?.tab ?? null
  if (boot !== null) boot.tab = null
  if (tab !== null) return tab
  const tabId = crypto.randomUUID()
  return { tabId, lock: requestLifetimeLock(tabLockName(tabId)) }
}

/** The worker index.html started, once, when `name` is the product's core and its script did not fail. */
export const takeEarlyCore = (name: string): SharedWorker | null => {
  const boot = early()
  const worker = boot?.worker ?? null
  if (boot === null || worker === null) return null
  boot.worker = null
  if (boot.failed || name !== CORE_WORKER_NAME) return null
  worker.onerror = null
  return worker
}
