// What the core needs from a tab's event port (a MessagePort in the browser, a fake in unit tests).
export interface TabPort {
  postMessage(message: unknown): void
  onmessage: ((ev: { data: unknown }) => void) | null
  close(): void
}

/** Calls `onGone` once the tab holding the Web Lock for `tabId` is gone; returns a cancel function. */
export type WatchTabGone = (tabId: string, onGone: () => void) => () => void
