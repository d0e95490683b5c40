// Work a page load does not need at once: it runs when the main thread is idle (requestIdleCallback), at the latest
// after `timeoutMs`; where the browser has no requestIdleCallback (Safari), after `fallbackMs`.
export interface IdleTiming {
  readonly timeoutMs: number
  readonly fallbackMs: number
}

/** Schedules `run` for an idle moment; returns its cancel. */
export const whenIdle = (run: () => void, { timeoutMs, fallbackMs }: IdleTiming): (() => void) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: timeoutMs })
    return () => window.cancelIdleCallback(id)
  }
  const id = setTimeout(run, fallbackMs)
  return () => clearTimeout(id)
}
