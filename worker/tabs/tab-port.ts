/** Calls `onGone` once the tab holding the Web Lock for `tabId` is gone; returns a cancel function. */
export type WatchTabGone = (tabId: string, onGone: () => void) => () => void
