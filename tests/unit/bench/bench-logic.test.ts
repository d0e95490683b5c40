// The bench's own logic: convergence read from the store (a snapshot catch-up is on time, not loss), the exit rule,
// and the self-time summary of a worker trace.
import { describe, expect, it } from 'vitest'
import { TabRecorder } from '../../../bench/pages/recorder.ts'
import { allExact } from '../../../bench/lib/tabs.ts'
import { failuresOf, runFailed, type PartResult } from '../../../bench/lib/result.ts'
import { toMarkdown } from '../../../bench/lib/report.ts'
import { Skipped, withPathTabs } from '../../../bench/lib/path-session.ts'
import type { BenchContext } from '../../../bench/lib/context.ts'
import { fanoutFailures, throughputFailures, type FanoutRun } from '../../../bench/parts/fanout.ts'
import { isCoreWorker, profiles, selfTimes, type TraceEvent } from '../../../bench/lib/trace-profile.ts'
import { frameToEvent, initialBenchState } from '../../../bench/pages/bench-store.ts'
import { WebSocket } from 'ws'
import { BENCH_PATH_PARAM, benchFrame, frameId } from '../../../bench/lib/frames.ts'
import { startPushSource } from '../../../bench/lib/push-source.ts'
import { latencyOutput, type LatencyResult } from '../../../bench/parts/dispatch.ts'
import { summarize } from '../../../bench/lib/stats.ts'

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

  it('fails on a run skipped for time, even when convergence failures are only reported', () => {
    expect(runFailed([part({ skipped: ['product x16: not started, the time budget ran out'] })], false)).toBe(true)
    expect(runFailed([part({ skipped: ['product x16: not started, the time budget ran out'] })], true)).toBe(true)
    expect(runFailed([part({ skipped: [] })], false)).toBe(false)
  })

  it('lists skipped runs and fan-out losses under Failures', () => {
    const parts = [
      part({ title: '3. Floods', skipped: ['product x16: not started, the time budget ran out'] }),
      part({ title: '5. Fan-out', failures: ['fan-out 1 instance, PGlite: a broadcast reached 20 of 2000 sockets'] }),
    ]
    expect(failuresOf(parts)).toEqual([
      'skipped (time budget): 3. Floods: product x16: not started, the time budget ran out',
      'fan-out 1 instance, PGlite: a broadcast reached 20 of 2000 sockets',
    ])
    const md = toMarkdown({ runId: 'r', startedAt: '', finishedAt: '', quick: true, environment: {}, parts })
    expect(md).toContain('- skipped (time budget): 3. Floods: product x16')
    expect(md).toContain('- fan-out 1 instance, PGlite: a broadcast reached 20 of 2000 sockets')
    expect(md).not.toContain('None: every part')
    expect(md).toContain('| 3. Floods | FAILED: 1 skipped for time |')
  })
})

describe('withPathTabs: a run not started for time is reported to the runner', () => {
  it('calls ctx.skipped for each tab count past the deadline, and onOpenFailed with Skipped', async () => {
    const skipped: string[] = []
    const failed: Array<[number, unknown]> = []
    let closed = false
    const ctx = {
      quick: true, log: () => undefined, skipped: (run: string) => void skipped.push(run),
      browser: { newContext: async () => ({ close: async () => void (closed = true) }) },
    } as unknown as BenchContext
    await withPathTabs(ctx, 'product', [4, 16], async () => undefined, (tabs, e) => void failed.push([tabs, e]), Date.now() - 1)
    expect(skipped).toEqual(['product x4: not started, the time budget ran out', 'product x16: not started, the time budget ran out'])
    expect(failed.map(([tabs, e]) => [tabs, e instanceof Skipped])).toEqual([[4, true], [16, true]])
    expect(closed).toBe(true)
  })
})

describe('fan-out: lost messages fail the bench', () => {
  const run = (live: number, missed: number): FanoutRun => ({ live, missed, all: summarize([1, 2]), perBroadcast: [] })

  it('fails a row whose broadcast reached fewer sockets than were open, or whose deliveries went missing', () => {
    expect(fanoutFailures('1 instance, PGlite', run(2000, 0), 2000, 3)).toEqual([])
    // the issue-21 run: the per-user cap left 1 980 sockets unreached
    expect(fanoutFailures('1 instance, PGlite', run(20, 5940), 2000, 3)).toEqual([
      'fan-out 1 instance, PGlite: a broadcast reached 20 of 2000 sockets',
      'fan-out 1 instance, PGlite: 5940 of 6000 deliveries missed',
    ])
    expect(fanoutFailures('2 instances, PostgreSQL', run(2000, 1), 2000, 3)).toEqual(['fan-out 2 instances, PostgreSQL: 1 of 6000 deliveries missed'])
  })

  it('fails a throughput run whose last frame never arrived', () => {
    expect(throughputFailures('PGlite', 4000, 500)).toEqual([])
    expect(throughputFailures('PGlite', NaN, 500)).toEqual(['push throughput PGlite: the last of 500 frames did not arrive'])
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

describe('the push source writes to one path\'s sockets when asked (paired rounds)', () => {
  it('sends a series to the sockets whose URL names that path and to every socket otherwise', async () => {
    const source = await startPushSource()
    const open = (path: string) => new Promise<{ ws: WebSocket; ids: number[] }>((resolve, reject) => {
      const ws = new WebSocket(`${source.url}?${BENCH_PATH_PARAM}=${path}`)
      const ids: number[] = []
      ws.on('message', (data) => ids.push(frameId(data.toString())))
      ws.on('open', () => resolve({ ws, ids }))
      ws.on('error', reject)
    })
    try {
      const product = await open('product')
      const port = await open('port')
      await source.waitForSockets(2, 5_000)
      const only = await source.sendSeries(1, 3, 0, { only: 'port' })
      const all = await source.sendSeries(4, 2, 0)
      expect(only.written).toBe(3)
      expect(all.written).toBe(4)
      const received = () => product.ids.length + port.ids.length === 7
      for (let i = 0; i < 100 && !received(); i++) await new Promise((r) => setTimeout(r, 20))
      expect(port.ids).toEqual([1, 2, 3, 4, 5])
      expect(product.ids).toEqual([4, 5])
      product.ws.close()
      port.ws.close()
    } finally {
      await source.close()
    }
  })
})

describe('dispatch ratios', () => {
  const run = (path: 'product' | 'port', round: number, samples: number[], blockP50s?: number[]): LatencyResult => ({
    path, tabs: 1, round, ok: true, exact: true, missing: 0, counterShort: 0, store: summarize(samples), commit: summarize(samples),
    storeSamples: samples, commitSamples: samples, ...(blockP50s ? { blockP50s } : {}),
  })
  const output = (runs: LatencyResult[]) => latencyOutput(runs, 3, { sessions: '1 at 1 tab', blocks: 2, messages: 3 })

  it('pool every round\'s samples for the target and pair each paired block with the baseline\'s block that ran beside it', () => {
    const out = output([
      run('product', 1, [0.4, 0.4, 0.4]), run('port', 1, [0.2, 0.2, 0.2]),
      run('product', 2, [0.3, 0.3, 0.3, 0.3, 0.3, 0.3], [0.3, 0.3]), run('port', 2, [0.3, 0.3, 0.3, 0.6, 0.6, 0.6], [0.3, 0.6]),
    ])
    // pooled: product 0.3 x6 + 0.4 x3 (p50 0.3); port 0.2 x3, 0.3 x3, 0.6 x3 (p50 0.3)
    expect(out.targets?.find((t) => t.name.includes('p50') && t.name.includes('1 tabs'))?.value).toBe(1)
    const perRound = out.tables.find((t) => t.title.startsWith('Store latency ratio'))!
    expect(perRound.rows).toEqual([
      [1, 1, 2, 2, '-'],
      [1, 2, 1, 0.5, '2: median 0.5, 0.5 to 1'],
    ])
  })

  it('miss the 1-tab target when the pooled product p50 is over 1.3 times the baseline\'s', () => {
    const out = output([run('product', 1, [0.5, 0.5, 0.5]), run('port', 1, [0.3, 0.3, 0.3])])
    const target = out.targets?.find((t) => t.name.includes('p50') && t.name.includes('1 tabs'))
    expect(target?.value).toBe(1.67)
    expect(target?.hit).toBe(false)
  })
})

describe('dispatch rows', () => {
  it('leave out a round skipped for want of time, and fail a row whose round errored', () => {
    const samples = [0.3, 0.3, 0.3]
    const ok = (path: 'product' | 'port', round: number): LatencyResult => ({
      path, tabs: 1, round, ok: true, exact: true, missing: 0, counterShort: 0, store: summarize(samples), commit: summarize(samples),
      storeSamples: samples, commitSamples: samples,
    })
    const skipped: LatencyResult = { path: 'port', tabs: 1, round: 2, ok: false, skipped: true, error: 'skipped: the time budget ran out' }
    const errored: LatencyResult = { path: 'port', tabs: 1, round: 2, ok: false, error: 'tab did not open' }
    const target = (runs: LatencyResult[]) =>
      latencyOutput(runs, 3, { sessions: '1 at 1 tab', blocks: 1, messages: 3 }).targets?.find((t) => t.name.includes('p50') && t.name.includes('1 tabs'))?.value
    expect(target([ok('product', 1), ok('port', 1), skipped])).toBe(1)
    expect(target([ok('product', 1), ok('port', 1), errored])).toBeNull()
  })
})
