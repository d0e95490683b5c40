// Parts 1-2: dispatch latency from a push frame reaching the browser's socket to every tab's store holding the new
// state (its coupon counter) and to React having committed it; the product paths and the three baselines, fed the
// same frames by the same push source.
import type { Page } from 'playwright-core'
import type { BenchContext } from '../lib/context.ts'
import { Skipped } from '../lib/path-session.ts'
import { check, type PartOutput, type TargetCheck } from '../lib/result.ts'
import { round, summarize, type Summary } from '../lib/stats.ts'
import { dumpTabs, resetTabs, settle, waitForStores, workerArrivals, type DeliveryPath } from '../lib/tabs.ts'

export const PATH_LABEL: Record<DeliveryPath, string> = {
  product: 'product (used): core SharedWorker, batches over a raw MessagePort',
  dedicated: 'product, dedicated-Worker fallback (no SharedWorker: older Android Chrome, in-app browsers): one core and one socket per tab',
  socket: 'baseline (i): a WebSocket per tab, reduced in the tab',
  comlink: 'baseline (ii): bench SharedWorker, one comlink proxied callback per event',
  port: 'baseline (iii): bench SharedWorker, batches over a raw MessagePort',
}

export const pathName = (path: DeliveryPath): string =>
  path === 'product' ? 'product (used)' : path === 'dedicated' ? 'product dedicated' : path

export interface LatencyResult {
  readonly path: DeliveryPath
  readonly tabs: number
  /** 1 for the run before the flood; later rounds are the paired latency-only runs (bench/parts/paired-latency.ts). */
  readonly round: number
  readonly ok: boolean
  readonly error?: string
  /** not run: the time budget ran out (reported, not a failure). */
  readonly skipped?: boolean
  readonly store?: Summary
  readonly commit?: Summary
  /** message x tab pairs without a time (the store or React never showed that counter, or no arrival stamp). */
  readonly missing?: number
  /** every tab's store ended exactly at its counter + messages sent. */
  readonly exact?: boolean
  /** summed over tabs: messages sent minus how far the coupon counter moved (negative: it moved too far). */
  readonly counterShort?: number
  readonly projection?: string
  readonly isolated?: { tabs: boolean; worker: boolean | null }
  /** the raw latencies, pooled over rounds in the report and left out of its JSON. */
  readonly storeSamples?: ReadonlyArray<number>
  readonly commitSamples?: ReadonlyArray<number>
  /** paired rounds (bench/parts/paired-latency.ts): each block's store p50, in the order the blocks ran. */
  readonly blockP50s?: ReadonlyArray<number>
}

/** Each message's t0: its first arrival in the browser (the worker sockets; for per-tab sockets the earliest tab's). */
export const firstArrivals = async (path: DeliveryPath, pages: Page[], count: number, perTab: ReadonlyArray<ReadonlyArray<number>>): Promise<Float64Array> => {
  if (path !== 'socket') return workerArrivals(pages[0], count)
  const at = new Float64Array(count + 1)
  for (let k = 1; k <= count; k++) {
    let min = Infinity
    for (const arrivals of perTab) if (arrivals[k] > 0 && arrivals[k] < min) min = arrivals[k]
    at[k] = Number.isFinite(min) ? min : 0
  }
  return at
}

/** one message per ~frame at 16 tabs keeps 2 cores from queueing, so this measures latency, not backlog. */
export const pacingMs = (tabs: number): number => (tabs >= 16 ? 16 : tabs >= 4 ? 6 : 4)

/** `only`: the push source writes to this path's sockets alone (another path's tabs may be open beside them). */
export const warmUp = async (ctx: BenchContext, pages: Page[], only?: DeliveryPath): Promise<void> => {
  const warm = ctx.quick ? 30 : 100
  await resetTabs(pages, warm)
  await ctx.push.sendSeries(1, warm, pacingMs(pages.length), { only })
  await waitForStores(pages, warm, { stallMs: 5_000, maxMs: 20_000, commits: true })
  await settle(pages, 300, 15_000)
}

export interface SeriesSamples {
  readonly store: number[]
  readonly commit: number[]
  readonly missing: number
  readonly exact: boolean
  readonly counterShort: number
}

/** count paced messages, and per message and tab the time from its first arrival to the store and to React. */
export const timedSeries = async (ctx: BenchContext, path: DeliveryPath, pages: Page[], count: number, only?: DeliveryPath): Promise<SeriesSamples> => {
  await resetTabs(pages, count)
  await ctx.push.sendSeries(1, count, pacingMs(pages.length), { only })
  const exact = await waitForStores(pages, count, { stallMs: 5_000, maxMs: ctx.quick ? 20_000 : 60_000, commits: true })
  const dumps = await dumpTabs(pages)
  const t0 = await firstArrivals(path, pages, count, dumps.map((d) => d.arrivalAt))
  const store: number[] = []
  const commit: number[] = []
  let missing = 0
  for (const d of dumps) {
    for (let k = 1; k <= count; k++) {
      if (!(t0[k] > 0) || !(d.storeAt[k] > 0) || !(d.commitAt[k] > 0)) { missing++; continue }
      store.push(d.storeAt[k] - t0[k])
      commit.push(d.commitAt[k] - t0[k])
    }
  }
  return { store, commit, missing, exact, counterShort: dumps.reduce((a, d) => a + (count - (d.progress.counter - d.progress.base)), 0) }
}

/** A run's result from its series (several, pooled, for the paired blocks). */
export const latencyResult = async (path: DeliveryPath, pages: Page[], round: number, series: ReadonlyArray<SeriesSamples>): Promise<LatencyResult> => {
  const isolated = await pages[0].evaluate(async () => ({ tabs: self.crossOriginIsolated, worker: await window.__bench!.workerIsolated() }))
  const projection = path === 'product' || path === 'dedicated' ? 'product store' : String(await pages[0].evaluate(() => window.__bench!.control('projection')))
  const store = series.flatMap((s) => s.store)
  const commit = series.flatMap((s) => s.commit)
  return {
    path, tabs: pages.length, round, ok: true, store: summarize(store), commit: summarize(commit),
    missing: series.reduce((a, s) => a + s.missing, 0), exact: series.every((s) => s.exact),
    counterShort: series.reduce((a, s) => a + s.counterShort, 0), projection, isolated,
    storeSamples: store, commitSamples: commit,
    ...(series.length > 1 ? { blockP50s: series.map((s) => summarize(s.store).p50) } : {}),
  }
}

export const measureLatency = async (ctx: BenchContext, path: DeliveryPath, pages: Page[], count: number, round: number): Promise<LatencyResult> => {
  try {
    await warmUp(ctx, pages)
    return await latencyResult(path, pages, round, [await timedSeries(ctx, path, pages, count)])
  } catch (e) {
    return latencyFailure(path, pages.length, e, round)
  }
}

export const latencyFailure = (path: DeliveryPath, tabs: number, e: unknown, round: number): LatencyResult =>
  ({ path, tabs, round, ok: false, skipped: e instanceof Skipped, error: e instanceof Error ? e.message.split('\n')[0] : String(e) })

/**
 * One row per path and tab count: the rounds' samples pooled (a failed round makes the row failed). A round skipped
 * because the time budget ran out is left out (a paired round records results for both paths or for neither), unless
 * nothing else ran.
 */
const pool = (results: ReadonlyArray<LatencyResult>): LatencyResult[] => {
  const groups = new Map<string, LatencyResult[]>()
  const ran = results.filter((r) => !r.skipped)
  for (const r of [...ran, ...results.filter((r) => r.skipped && !ran.some((o) => o.path === r.path && o.tabs === r.tabs))]) {
    const key = `${r.path}/${r.tabs}`
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  return [...groups.values()].map((runs) => {
    const failed = runs.find((r) => !r.ok)
    if (failed !== undefined) return failed
    const first = runs[0]
    const store = runs.flatMap((r) => r.storeSamples ?? [])
    const commit = runs.flatMap((r) => r.commitSamples ?? [])
    return {
      ...first,
      round: runs.length,
      store: summarize(store),
      commit: summarize(commit),
      missing: runs.reduce((a, r) => a + (r.missing ?? 0), 0),
      exact: runs.every((r) => r.exact === true),
      counterShort: runs.reduce((a, r) => a + (r.counterShort ?? 0), 0),
      storeSamples: undefined,
      commitSamples: undefined,
    }
  })
}

const withoutSamples = (r: LatencyResult): LatencyResult => ({ ...r, storeSamples: undefined, commitSamples: undefined })

const ms = (v: number | undefined): string | number => (v === undefined || !Number.isFinite(v) ? '-' : round(v, 3))
const ratio = (a: number | undefined, b: number | undefined): number | null =>
  a === undefined || b === undefined || !(b > 0) ? null : round(a / b, 2)

/** how the paired rounds ran (bench/parts/paired-latency.ts), for the report's text. */
export interface PairedPlan {
  /** how many paired rounds ran at which tab count, as the report says it. */
  readonly sessions: string
  readonly blocks: number
  readonly messages: number
}

export const latencyOutput = (runs: ReadonlyArray<LatencyResult>, count: number, paired: PairedPlan): PartOutput => {
  const results = pool(runs)
  const at = (path: DeliveryPath, tabs: number) => results.find((s) => s.path === path && s.tabs === tabs && s.ok)
  const roundRatios = (tabs: number) => {
    const rounds = [...new Set(runs.filter((r) => r.tabs === tabs).map((r) => r.round))].sort((a, b) => a - b)
    const one = (path: DeliveryPath, round: number) => runs.find((r) => r.path === path && r.tabs === tabs && r.round === round && r.ok)
    return rounds.map((round) => {
      const product = one('product', round)
      const port = one('port', round)
      // block b of the product against block b of the baseline: they ran back to back
      const blocks = (product?.blockP50s ?? []).map((p, b) => ratio(p, port?.blockP50s?.[b])).filter((r): r is number => r !== null).sort((a, b) => a - b)
      return {
        round, p50: ratio(product?.store?.p50, port?.store?.p50), p99: ratio(product?.store?.p99, port?.store?.p99),
        blocks: blocks.length === 0 ? '-' : `${blocks.length}: median ${blocks[Math.floor((blocks.length - 1) / 2)]}, ${blocks[0]} to ${blocks[blocks.length - 1]}`,
      }
    })
  }
  const tabCounts = [...new Set(results.map((r) => r.tabs))].sort((a, b) => a - b)
  const p4 = at('product', 4)
  const targets: TargetCheck[] = []
  for (const tabs of [1, 4]) {
    targets.push(check(`store p50 product / raw-port baseline at ${tabs} tabs (issue 13)`, '<= 1.3', ratio(at('product', tabs)?.store?.p50, at('port', tabs)?.store?.p50), 'x', (v) => v <= 1.3))
  }
  targets.push(check('store p99 product / raw-port baseline at 4 tabs (issue 13)', '<= 1.5', ratio(p4?.store?.p99, at('port', 4)?.store?.p99), 'x', (v) => v <= 1.5))
  targets.push(
    check('store updated p99 at 4 tabs (product, issue 5)', '<= 2 ms', p4?.store?.p99, 'ms', (v) => v <= 2),
    check('React committed p99 at 4 tabs (product, issue 5)', '<= 16 ms', p4?.commit?.p99, 'ms', (v) => v <= 16),
  )
  const failures = runs.filter((r) => r.ok && !r.exact)
    .map((r) => `dispatch ${pathName(r.path)} x${r.tabs}: the tabs' stores did not all end exactly +${count} (short ${r.counterShort})`)
  const errors = runs.filter((r) => !r.ok && !r.skipped).map((r) => `dispatch ${pathName(r.path)} x${r.tabs} round ${r.round} errored: ${r.error}`)
  const sorted = [...results].sort((a, b) => a.tabs - b.tabs)
  return {
    tables: [
      {
        title: `Dispatch latency in ms from the frame reaching the browser's first socket to the tab's store / React showing it (round 1: ${count} messages per tab; paired rounds: ${paired.blocks} blocks of ${paired.messages}; samples = messages x tabs, rounds pooled)`,
        columns: ['path', 'tabs', 'rounds', 'store p50', 'store p95', 'store p99', 'React p50', 'React p95', 'React p99', 'samples', 'missing', 'stores exact', 'counter short', 'isolated tab/worker', 'note'],
        rows: sorted.map((s) => [
          pathName(s.path), s.tabs, s.round,
          ms(s.store?.p50), ms(s.store?.p95), ms(s.store?.p99), ms(s.commit?.p50), ms(s.commit?.p95), ms(s.commit?.p99),
          s.store?.n ?? 0, s.missing ?? '-', s.exact ?? '-', s.counterShort ?? '-',
          s.isolated ? `${s.isolated.tabs}/${s.isolated.worker ?? 'n/a'}` : '-',
          s.ok ? (s.path === 'product' || s.path === 'dedicated' ? '' : `tab reduces into ${s.projection}`) : `FAILED: ${s.error}`,
        ]),
      },
      {
        title: 'Dispatch ratios to the raw-port baseline (iii), same run (store latency, rounds pooled)',
        columns: ['tabs', 'product p50 / port p50', 'product p99 / port p99', 'dedicated p50 / port p50', 'dedicated p99 / port p99'],
        rows: tabCounts.map((tabs) => {
          const port = at('port', tabs)?.store
          return [
            tabs, ratio(at('product', tabs)?.store?.p50, port?.p50), ratio(at('product', tabs)?.store?.p99, port?.p99),
            ratio(at('dedicated', tabs)?.store?.p50, port?.p50), ratio(at('dedicated', tabs)?.store?.p99, port?.p99),
          ]
        }),
      },
      {
        title: 'Store latency ratio product / raw-port baseline per round (round 1: each path alone, before its flood; later rounds: side by side in blocks, bench/parts/paired-latency.ts; the targets use the pooled samples above)',
        columns: ['tabs', 'round', 'p50 ratio', 'p99 ratio', 'block p50 ratios: blocks, median, range'],
        rows: [1, 4].flatMap((tabs) => roundRatios(tabs).map((r) => [tabs, r.round, r.p50 ?? '-', r.p99 ?? '-', r.blocks])),
      },
    ],
    targets,
    failures,
    errors,
    product: at('product', 1) ? 'real' : 'missing',
    notes: [
      ...Object.values(PATH_LABEL),
      'Every path is fed by the one bench push source (bench/lib/push-source.ts): the same socket writer, frame bytes and pacing. The product\'s core socket is pointed at it by the bench\'s socket probe; the core still logs in against the reference server.',
      'Clock: performance.timeOrigin + performance.now() in the worker (a socket probe whose listener runs before the core\'s own) and in each tab. Pages are cross-origin isolated (COOP/COEP); the column says whether the worker is too (if not, its clock is coarsened to 0.1 ms).',
      't0 is the first arrival in the browser: the worker socket for the shared paths (the earliest of the per-tab workers for the dedicated fallback), the earliest tab socket for the per-tab baseline.',
      'Store: the tab store\'s subscription firing with a coupon counter of at least base + k for message k (whether an event batch or a snapshot brought it). React: useLayoutEffect of a component reading the counter through the store hook. Production build of React and of the core.',
      '"stores exact": every tab\'s store ended at exactly base + messages sent; "counter short" sums messages sent minus how far each tab\'s counter moved.',
      'Messages are sendCouponMsg pushes (each bumps the coupon counter), paced 4 ms apart at 1 tab, 6 ms at 4 and 16 ms at 16 after a warm-up.',
      `Paired rounds (bench/parts/paired-latency.ts): the product and the raw-port baseline open side by side in two browser contexts, taking turns in blocks of ${paired.messages} messages (the push source writes to one path's sockets at a time), each path first in half of the blocks; such rounds on fresh contexts: ${paired.sessions}.`,
      ...runs.filter((s) => !s.ok).map((s) => `${pathName(s.path)} x${s.tabs} round ${s.round} failed: ${s.error}`),
    ],
    // pooled rows (one per path and tab count, what the chart plots), then every round's own figures
    data: [...results, ...runs.map(withoutSamples)].map((r, i) => ({ ...r, pooled: i < results.length })),
  }
}
