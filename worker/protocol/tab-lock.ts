// The Web Lock a tab holds for its lifetime; the core waits on the same name to learn the tab is gone.
export const tabLockName = (tabId: string): string => `cloud-phone-core:tab:${tabId}`
