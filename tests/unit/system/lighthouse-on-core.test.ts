// scripts/lighthouse-on-core.ts: the page's trace rewritten as a quiet machine would have recorded it, for a second
// Lighthouse audit. Only the page's main thread changes, each top-level task with its contents in proportion.
import { describe, expect, it } from 'vitest'
import { compressTasks, preemptedSpans, withoutPreemption, type TimedEvent } from '../../../scripts/lighthouse-on-core.ts'

const PAGE = { pid: 10, tid: 11 }
const navigation = (): TimedEvent => ({
  ...PAGE, name: 'navigationStart', ph: 'R', ts: 1_000,
  args: { data: { isLoadingMainFrame: true, documentLoaderURL: 'http://127.0.0.1/cloud/phone/web/' } },
})
const task = (ts: number, dur: number, tdur: number): TimedEvent => ({ ...PAGE, name: 'RunTask', ph: 'X', ts, dur, tdur })

describe('compressTasks', () => {
  it('shortens each top-level task of the page to its CPU time, its contents in proportion', () => {
    const outer = task(2_000, 100_000, 25_000)
    const inner: TimedEvent = { ...PAGE, name: 'v8.run', ph: 'X', ts: 42_000, dur: 40_000, tdur: 10_000 }
    const mark: TimedEvent = { ...PAGE, name: 'mark', ph: 'I', ts: 90_000 }
    const next = task(150_000, 20_000, 19_000)
    const otherThread: TimedEvent = { pid: 10, tid: 99, name: 'RunTask', ph: 'X', ts: 2_000, dur: 100_000, tdur: 1_000 }
    const events = [navigation(), outer, inner, mark, next, otherThread]

    expect(compressTasks(events)).toBe(2)
    expect([outer.ts, outer.dur]).toEqual([2_000, 25_000])
    expect([inner.ts, inner.dur]).toEqual([12_000, 10_000])
    expect(mark.ts).toBe(24_000)
    expect([next.ts, next.dur]).toEqual([150_000, 19_000])
    expect([otherThread.ts, otherThread.dur]).toEqual([2_000, 100_000])
  })

  it('leaves a task alone when it ran the whole time, and a trace with no page navigation', () => {
    const busy = task(2_000, 30_000, 30_500)
    expect(compressTasks([navigation(), busy])).toBe(0)
    expect(busy.dur).toBe(30_000)
    const orphan = task(2_000, 30_000, 1_000)
    expect(compressTasks([orphan])).toBe(0)
    expect(orphan.dur).toBe(30_000)
  })
})

describe('preemptedSpans', () => {
  const perfScript = [
    // the page's thread preempted (R) at 1.000100 s, back at 1.000400 s
    '    1.000100: sched:sched_switch: prev_comm=chromium prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=chromium next_pid=7 next_prio=120',
    '    1.000400: sched:sched_switch: prev_comm=chromium prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=chromium next_pid=11 next_prio=120',
    // asleep (S) from 1.000500 s: waiting on another thread, not for a core
    '    1.000500: sched:sched_switch: prev_comm=chromium prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120',
    '    1.000900: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=chromium next_pid=11 next_prio=120',
    // preempted while still runnable after a wake-up (R+)
    '    1.001000: sched:sched_switch: prev_comm=chromium prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=node next_pid=3 next_prio=120',
    '    1.001200: sched:sched_switch: prev_comm=node prev_pid=3 prev_prio=120 prev_state=S ==> next_comm=chromium next_pid=11 next_prio=120',
  ].join('\n')

  it('keeps the spans in which the thread waited for a core, not those it slept', () => {
    const spans = preemptedSpans(perfScript, 11)
    expect(spans.map(([a, b]) => [Math.round(a), Math.round(b)])).toEqual([[1_000_100, 1_000_400], [1_001_000, 1_001_200]])
  })

  it('takes the preempted time inside a task off its length', () => {
    const length = withoutPreemption(preemptedSpans(perfScript, 11))
    expect(Math.round(length(task(1_000_000, 1_000, 300)))).toBe(1_000 - 300)
    expect(Math.round(length(task(1_000_300, 800, 300)))).toBe(800 - 100 - 100)
  })
})
