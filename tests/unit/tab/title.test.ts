import { describe, expect, it } from 'vitest'
import { applyTitleWithRetry, titleFor } from '../../../src/ui/title.ts'
import { navBarHeight, statusBarHeightFrom } from '../../../src/ui/nav-height.ts'

const ANDROID = 'Mozilla/5.0 (Linux; Android 13) Mobile Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148'

/** A manual clock: timers run only when the test advances it. */
const manualClock = () => {
  let now = 0
  let timers: Array<{ at: number; run: () => void; id: number }> = []
  let nextId = 0
  return {
    setTimer: (run: () => void, ms: number) => {
      const id = ++nextId
      timers.push({ at: now + ms, run, id })
      return id
    },
    clearTimer: (id: unknown) => {
      timers = timers.filter((t) => t.id !== id)
    },
    advance: (ms: number) => {
      const until = now + ms
      for (;;) {
        const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0]
        if (!due) break
        timers = timers.filter((t) => t !== due)
        now = due.at
        due.run()
      }
      now = until
    },
  }
}

describe('title rule', () => {
  it('reads {systemName}云手机', () => {
    expect(titleFor('星云')).toBe('星云云手机')
    expect(titleFor(null)).toBeNull()
    expect(titleFor('')).toBeNull()
  })

  it('sets the title at once when the system name exists', () => {
    const clock = manualClock()
    const applied: string[] = []
    applyTitleWithRetry({ getSystemName: () => '星云', apply: (t) => applied.push(t), ...clock })
    expect(applied).toEqual(['星云云手机'])
  })

  it('retries every 50 ms until the system name arrives', () => {
    const clock = manualClock()
    const applied: string[] = []
    let name: string | null = null
    applyTitleWithRetry({ getSystemName: () => name, apply: (t) => applied.push(t), ...clock })
    clock.advance(100)
    expect(applied).toEqual([])
    name = '星云'
    clock.advance(49)
    expect(applied).toEqual([])
    clock.advance(1)
    expect(applied).toEqual(['星云云手机'])
  })

  it('gives up after 5 retries', () => {
    const clock = manualClock()
    let reads = 0
    const applied: string[] = []
    applyTitleWithRetry({ getSystemName: () => (reads++, null), apply: (t) => applied.push(t), ...clock })
    clock.advance(1000)
    expect(reads).toBe(6)
    expect(applied).toEqual([])
  })

  it('stops retrying once cancelled', () => {
    const clock = manualClock()
    let reads = 0
    const cancel = applyTitleWithRetry({ getSystemName: () => (reads++, null), apply: () => {}, ...clock })
    cancel()
    clock.advance(1000)
    expect(reads).toBe(1)
  })
})

describe('navigation bar height', () => {
  it('is the status bar height plus 50 on Android', () => {
    expect(navBarHeight(24, ANDROID)).toBe(74)
  })

  it('is the status bar height plus 45 elsewhere', () => {
    expect(navBarHeight(20, IPHONE)).toBe(65)
  })

  it('takes the stored status bar height, or 0 on the web', () => {
    expect(statusBarHeightFrom('24')).toBe(24)
    expect(statusBarHeightFrom(null)).toBe(0)
    expect(statusBarHeightFrom('abc')).toBe(0)
    expect(navBarHeight(statusBarHeightFrom(null), IPHONE)).toBe(45)
  })
})
