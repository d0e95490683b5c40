// whenIdle (src/lib/when-idle.ts): deferred work runs at an idle moment (at most timeoutMs later); without
// requestIdleCallback, fallbackMs later; its cancel stops it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { whenIdle } from '../../../src/lib/when-idle.ts'

const TIMING = { timeoutMs: 2000, fallbackMs: 500 } as const

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

  it('asks for an idle moment with timeoutMs as its limit, and runs in it', () => {
    const run = vi.fn()
    whenIdle(run, TIMING)
    expect(idle).toEqual([{ run, timeout: 2000 }])
    expect(run).not.toHaveBeenCalled()
    idle[0]!.run()
    expect(run).toHaveBeenCalledOnce()
  })

  it('cancelled before the idle moment, it never runs', () => {
    const run = vi.fn()
    const cancel = whenIdle(run, TIMING)
    cancel()
    idle[0]!.run()
    expect(run).not.toHaveBeenCalled()
  })

  it('without requestIdleCallback (Safari), runs fallbackMs later unless cancelled', () => {
    vi.stubGlobal('window', {})
    const run = vi.fn()
    whenIdle(run, TIMING)
    vi.advanceTimersByTime(499)
    expect(run).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(run).toHaveBeenCalledOnce()
    const cancelled = vi.fn()
    whenIdle(cancelled, TIMING)()
    vi.advanceTimersByTime(10_000)
    expect(cancelled).not.toHaveBeenCalled()
  })
})
