// The screen-load timers of §8/§9 with fake timers: a screen that has not loaded after 60 s fails as a screen timeout,
// its chunk goes on loading up to 120 s and then fails as a chunk-load timeout; a retry in between waits on the same
// chunk, a retry after a failed chunk imports again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ScreenLoadTimeout, screenLoader, type ScreenModule } from '../../../src/router/lazy-screen.ts'
import { ASYNC_SCREEN_TIMEOUT_MS, CHUNK_LOAD_TIMEOUT_MS } from '../../../worker/protocol/constants.ts'

const module: ScreenModule = { default: () => null }

/** An import that settles only when the test says so. */
const pendingImport = () => {
  const calls: Array<{ resolve: (m: ScreenModule) => void; reject: (e: unknown) => void }> = []
  const importer = () => new Promise<ScreenModule>((resolve, reject) => void calls.push({ resolve, reject }))
  return { importer, calls }
}

const outcome = (p: Promise<unknown>) => {
  const seen: { value?: unknown; error?: unknown; settled: boolean } = { settled: false }
  p.then((value) => Object.assign(seen, { value, settled: true }), (error: unknown) => Object.assign(seen, { error, settled: true }))
  return seen
}

describe('screen loading timers', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('the constants are the spec values', () => {
    expect(ASYNC_SCREEN_TIMEOUT_MS).toBe(60_000)
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000)
  })

  it('a screen still loading at 60 s fails as a screen timeout, not a moment before', async () => {
    const { importer } = pendingImport()
    const first = outcome(screenLoader(importer)())
    await vi.advanceTimersByTimeAsync(ASYNC_SCREEN_TIMEOUT_MS - 1)
    expect(first.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(first.error).toEqual(new ScreenLoadTimeout('screen'))
    expect((first.error as ScreenLoadTimeout).kind).toBe('screen')
  })

  it('a retry after the screen timeout waits on the same chunk, which fails as a chunk timeout at 120 s', async () => {
    const { importer, calls } = pendingImport()
    const load = screenLoader(importer)
    const first = outcome(load())
    await vi.advanceTimersByTimeAsync(ASYNC_SCREEN_TIMEOUT_MS)
    expect((first.error as ScreenLoadTimeout).kind).toBe('screen')
    await vi.advanceTimersByTimeAsync(10_000)
    const retry = outcome(load())
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - ASYNC_SCREEN_TIMEOUT_MS - 10_000 - 1)
    expect(retry.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect((retry.error as ScreenLoadTimeout).kind).toBe('chunk')
    // the dead chunk is dropped: the next retry imports again and can succeed
    const third = outcome(load())
    expect(calls).toHaveLength(2)
    calls[1]!.resolve(module)
    await vi.advanceTimersByTimeAsync(0)
    expect(third.value).toBe(module)
  })

  it('a slow chunk that arrives after the screen timeout shows on the retry', async () => {
    const { importer, calls } = pendingImport()
    const load = screenLoader(importer)
    outcome(load())
    await vi.advanceTimersByTimeAsync(ASYNC_SCREEN_TIMEOUT_MS)
    const retry = outcome(load())
    await vi.advanceTimersByTimeAsync(30_000)
    calls[0]!.resolve(module)
    await vi.advanceTimersByTimeAsync(0)
    expect(retry.value).toBe(module)
    expect(calls).toHaveLength(1)
  })

  it('a failed import surfaces at once with its own error, and the retry imports again', async () => {
    const { importer, calls } = pendingImport()
    const load = screenLoader(importer)
    const first = outcome(load())
    calls[0]!.reject(new TypeError('Failed to fetch dynamically imported module'))
    await vi.advanceTimersByTimeAsync(0)
    expect(first.error).toBeInstanceOf(TypeError)
    outcome(load())
    expect(calls).toHaveLength(2)
  })
})
