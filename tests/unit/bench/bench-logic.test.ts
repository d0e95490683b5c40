// The bench's own logic: convergence read from the store (a snapshot catch-up is on time, not loss), the exit rule,
// and the self-time summary of a worker trace.
import { describe, expect, it } from 'vitest'
import { TabRecorder } from '../../../bench/pages/recorder.ts'
import { allExact } from '../../../bench/lib/tabs.ts'
import { runFailed, type PartResult } from '../../../bench/lib/result.ts'
import { isCoreWorker, profiles, selfTimes, type TraceEvent } from '../../../bench/lib/trace-profile.ts'
import { frameToEvent, initialBenchState } from '../../../bench/pages/bench-store.ts'
import { benchFrame } from '../../../bench/lib/frames.ts'

describe('TabRecorder reads convergence from the store counter', () => {
  it('times every message when a snapshot jumps the counter to the end at once, and calls the tab exact', () => {
    const r = new TabRecorder()
    r.reset(5, 100)
    r.store(102)
    r.store(105)
    const dump = r.dump()
    expect(dump.progress).toMatchObject({ stored: 5, counter: 105, base: 100, overshoot: false, undershoot: false })
    expect(dump.storeAt.slice(1).every((t) => t > 0)).toBe(true)
    expect(allExact([dump.progress], 5, false)).toBe(true)
  })

  it('is not exact when the counter stops short, goes past the end, or React has not committed it', () => {
    const short = new TabRecorder()
    short.reset(5, 0)
    short.store(4)
    expect(allExact([short.progress()], 5, false)).toBe(false)
    expect(short.dump().storeAt[5]).toBe(0)

    const over = new TabRecorder()
    over.reset(5, 0)
    over.store(6)
    expect(over.progress().overshoot).toBe(true)
    expect(allExact([over.progress()], 5, false)).toBe(false)

    const uncommitted = new TabRecorder()
    uncommitted.reset(5, 0)
    uncommitted.store(5)
    uncommitted.commit(3)
    expect(allExact([uncommitted.progress()], 5, true)).toBe(false)
    uncommitted.commit(5)
    expect(allExact([uncommitted.progress()], 5, true)).toBe(true)
  })

  it('flags a counter that fell below where the run started (state lost)', () => {
    const r = new TabRecorder()
    r.reset(3, 50)
    r.store(2)
    expect(r.progress().undershoot).toBe(true)
  })
})

describe('the baselines\' counter rule', () => {
  it('turns a sendCouponMsg frame into the next counters, in the product store\'s event form', () => {
    const inc = frameToEvent(initialBenchState, benchFrame(1), 'increment')!
    expect(inc.state).toEqual({ seq: 1, counters: { my: 1, activationCode: 0, coupon: 1 } })
    expect(inc.delivered).toEqual({ seq: 1, event: { _tag: 'CounterIncremented', kind: 'coupon' } })
    const v1 = frameToEvent(inc.state, benchFrame(2), 'counters')!
    expect(v1.delivered).toEqual({ seq: 2, event: { _tag: 'CardCouponChanged', counters: { my: 2, activationCode: 0, coupon: 2 } } })
    expect(frameToEvent(initialBenchState, JSON.stringify({ type: 'keepAlive' }), 'increment')).toBeNull()
  })
})

describe('runFailed: the bench exit rule', () => {
  const part = (extra: Partial<PartResult>): PartResult => ({ id: 'p', title: 'p', ok: true, durationMs: 1, ...extra })

  it('fails on an errored part, a run error, or a convergence failure', () => {
    expect(runFailed([part({})], false)).toBe(false)
    expect(runFailed([part({ ok: false, error: 'boom' })], false)).toBe(true)
    expect(runFailed([part({ errors: ['tab did not open'] })], false)).toBe(true)
    expect(runFailed([part({ failures: ['flood x4: 3/4 tabs exact'] })], false)).toBe(true)
  })

  it('only reports convergence failures when asked to, but still fails on errors', () => {
    expect(runFailed([part({ failures: ['flood x4: 3/4 tabs exact'] })], true)).toBe(false)
    expect(runFailed([part({ failures: ['x'], errors: ['tab did not open'] })], true)).toBe(true)
    expect(runFailed([part({ ok: false, error: 'boom' })], true)).toBe(true)
  })
})

describe('worker trace summary', () => {
  const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 9 })
  const events: TraceEvent[] = [
    { name: 'thread_name', ph: 'M', pid: 1, tid: 7, args: { name: 'SharedWorker thread' } },
    { name: 'thread_name', ph: 'M', pid: 2, tid: 8, args: { name: 'CrRendererMain' } },
    { name: 'Profile', ph: 'P', pid: 1, tid: 7, id: '0x1' },
    { name: 'Profile', ph: 'P', pid: 2, tid: 8, id: '0x1' },
    {
      name: 'ProfileChunk', ph: 'P', pid: 1, tid: 99, id: '0x1',
      args: { data: {
        cpuProfile: { nodes: [
          { id: 1, callFrame: frame('(root)') },
          { id: 2, parent: 1, callFrame: frame('put', '') },
          { id: 3, parent: 1, callFrame: frame('decodePushFrame', 'http://x/bench/assets/main-abc.js') },
          { id: 4, parent: 1, callFrame: frame('(idle)') },
        ], samples: [2, 3] },
        timeDeltas: [0, 300],
      } },
    },
    { name: 'ProfileChunk', ph: 'P', pid: 1, tid: 99, id: '0x1', args: { data: { cpuProfile: { samples: [2, 4, 2] }, timeDeltas: [200, 500, 1000] } } },
    {
      name: 'ProfileChunk', ph: 'P', pid: 2, tid: 98, id: '0x1',
      args: { data: { cpuProfile: { nodes: [{ id: 1, callFrame: frame('render', 'http://x/bench/assets/dispatch-1.js') }], samples: [1, 1] }, timeDeltas: [0, 50] } },
    },
  ]

  it('assembles chunks per profiled thread, finds the core worker by its bundle, and sums self time per function', () => {
    const all = profiles(events)
    expect(all.map((p) => p.thread).sort()).toEqual(['CrRendererMain', 'SharedWorker thread'])
    const workers = all.filter(isCoreWorker)
    expect(workers.map((w) => w.thread)).toEqual(['SharedWorker thread'])
    const { busyMs, idleMs, top } = selfTimes(workers)
    // samples put, decode, put, idle, put lasting until the next sample: 0.3, 0.2, 0.5, 1.0 ms and the last unknown
    expect(top).toEqual([{ fn: 'put', ms: 0.8 }, { fn: 'decodePushFrame main-abc.js:10', ms: 0.2 }])
    expect(busyMs).toBeCloseTo(1.0)
    expect(idleMs).toBeCloseTo(1.0)
  })
})
