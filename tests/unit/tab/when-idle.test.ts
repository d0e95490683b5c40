// whenIdle (src/lib/when-idle.ts): deferred work waits out the page's loading (notBeforeMs), then an idle moment (at
// most timeoutMs); without requestIdleCallback, fallbackMs; its cancel stops it at either stage.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { whenIdle } from '../../../src/lib/when-idle.ts'

const TIMING = { notBeforeMs: 3000, timeoutMs: 2000, fallbackMs: 500 } as const

describe('whenIdle', () => {
  let idle: Array<{ run: () => void; timeout: number | undefined }>
  beforeEach(() => {
    vi.useFakeTimers()
    idle = []
    vi.stubGlobal('window', {
      requestIdleCallback: (run: () => void, options?: { timeout?: number }) => idle.push({ run, timeout: options?.timeout }) - 1,
      cancelIdleCallback: (id: number) => void (idle[id] = { run: () => undefined, timeout: undefined }),
    })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('asks for an idle moment only after notBeforeMs, with timeoutMs as its limit', () => {
    const run = vi.fn()
    whenIdle(run, TIMING)
    vi.advanceTimersByTime(2999)
    expect(idle).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(idle).toEqual([{ run, timeout: 2000 }])
    idle[0]!.run()
    expect(run).toHaveBeenCalledOnce()
  })

  it('cancelled while waiting, or while waiting for the idle moment, it never runs', () => {
    const early = vi.fn()
    whenIdle(early, TIMING)()
    vi.advanceTimersByTime(10_000)
    expect(idle).toHaveLength(0)
    const late = vi.fn()
    const cancel = whenIdle(late, TIMING)
    vi.advanceTimersByTime(3000)
    cancel()
    idle[0]!.run()
    expect(late).not.toHaveBeenCalled()
    expect(early).not.toHaveBeenCalled()
  })

  it('without requestIdleCallback (Safari), runs fallbackMs after notBeforeMs', () => {
    vi.stubGlobal('window', {})
    const run = vi.fn()
    whenIdle(run, TIMING)
    vi.advanceTimersByTime(3499)
    expect(run).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(run).toHaveBeenCalledOnce()
  })
})
