// Work a page load does not need at once: it waits `notBeforeMs` (the page's own loading goes first: an idle moment
// comes soon while the load waits on the network, and work run then is one more task among the load's), then runs when
// the main thread is idle (requestIdleCallback), at the latest `timeoutMs` later; where the browser has no
// requestIdleCallback (Safari), `fallbackMs` later.
export interface IdleTiming {
  readonly notBeforeMs: number
  readonly timeoutMs: number
  readonly fallbackMs: number
}

/** Schedules `run` for an idle moment; returns its cancel. */
export const whenIdle = (run: () => void, { notBeforeMs, timeoutMs, fallbackMs }: IdleTiming): (() => void) => {
  let cancelIdle = (): void => undefined
  const wait = setTimeout(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(run, { timeout: timeoutMs })
      cancelIdle = () => window.cancelIdleCallback(id)
    } else {
      const id = setTimeout(run, fallbackMs)
      cancelIdle = () => clearTimeout(id)
    }
  }, notBeforeMs)
  return () => {
    clearTimeout(wait)
    cancelIdle()
  }
}
