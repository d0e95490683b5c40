// The tab's lifetime lock (named by worker/protocol/tab-lock.ts): held until the tab closes (or `release` is called),
// so the core can tell it is gone. src/boot/early-core.ts takes it as the page starts.

/**
 * Requests the Web Lock `name` and holds it until the returned release is called (at once a no-op release without
 * Web Locks). Self-contained (no imports, no outer names): index.html also runs it, serialised (src/boot/early-core.ts).
 */
export function requestLifetimeLock(name: string): Promise<() => void> {
  return new Promise((granted) => {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks
    if (locks === undefined) return granted(() => {})
    locks
      .request(name, () => new Promise<void>((release) => granted(() => release())))
      .catch(() => granted(() => {}))
  })
}
