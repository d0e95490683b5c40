// Web Locks that tell one side the other is gone. A tab holds `tabLockName` for its lifetime and the core waits on it
// to learn the tab closed; the core's worker holds `coreLockName` for its lifetime and every tab waits on it to learn
// the worker died (issue 21: the browser releases a dead context's locks at once, ~30 ms after a kill measured here).
export const tabLockName = (tabId: string): string => `cloud-phone-core:tab:${tabId}`
/** One per worker instance (a new id each start), so a waiting tab is granted it only by this instance's death. */
export const coreLockName = (instanceId: string): string => `cloud-phone-core:worker:${instanceId}`
