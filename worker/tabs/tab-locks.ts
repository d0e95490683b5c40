// Closed or crashed tabs are detected with Web Locks: each tab holds a lock named for its tabId for its lifetime, so
// the worker's request for the same name is granted exactly when that tab is gone (MessagePort has no close event).
import { tabLockName } from '../protocol/tab-lock.ts'
import type { WatchTabGone } from './tab-port.ts'

export const watchTabGoneWithLocks: WatchTabGone = (tabId, onGone) => {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (locks === undefined) return () => {}
  const abort = new AbortController()
  locks
    .request(tabLockName(tabId), { signal: abort.signal }, () => {
      onGone()
    })
    .catch(() => {})
  return () => abort.abort()
}
