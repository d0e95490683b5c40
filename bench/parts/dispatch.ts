// Parts 1-2: dispatch latency from a push frame reaching the browser's socket to every tab's store holding the new
// state and to React having committed it; the product path and the three baselines, same messages.
import type { Page } from 'playwright-core'
import type { BenchContext } from '../lib/context.ts'
import { check, type PartOutput, type TargetCheck } from '../lib/result.ts'
import { round, summarize, type Summary } from '../lib/stats.ts'
import { dumpTabs, resetTabs, settle, waitForTabs, workerArrivals, type DeliveryPath } from '../lib/tabs.ts'

export const PATH_LABEL: Record<DeliveryPath, string> = {
  product: 'product (used): core SharedWorker, batches over a raw MessagePort',
  socket: 'baseline (i): a WebSocket per tab, reduced in the tab',
  comlink: 'baseline (ii): bench SharedWorker, one comlink proxied callback per event',
  port: 'baseline (iii): bench SharedWorker, batches over a raw MessagePort',
}

export interface LatencyResult {
  readonly path: DeliveryPath
  readonly tabs: number
  readonly ok: boolean
  readonly error?: string
  readonly store?: Summary
  readonly commit?: Summary
  readonly missing?: number
  readonly lost?: number
  readonly duplicatedOrReordered?: number
  readonly projection?: string
  /** summed over tabs: messages sent minus how far the coupon counter moved (a core losing increments). */
  readonly counterShort?: number
  readonly isolated?: { tabs: boolean; worker: boolean | null }
}

/** Each message's t0: its first arrival in the browser (the worker's socket; for per-tab sockets the earliest tab's). */
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

export const sendSeries = (ctx: BenchContext, path: DeliveryPath, count: number, intervalMs: number): Promise<unknown> =>
  path === 'product' ? ctx.server!.sendSeries(1, count, intervalMs) : ctx.push.sendSeries(1, count, intervalMs)

/** one message per ~frame at 16 tabs keeps 2 cores from queueing, so this measures latency, not backlog. */
const pacingMs = (tabs: number): number => (tabs >= 16 ? 16 : tabs >= 4 ? 6 : 4)

export const measureLatency = async (ctx: BenchContext, path: DeliveryPath, pages: Page[], count: number): Promise<LatencyResult> => {
  const tabs = pages.length
  try {
    const warm = ctx.quick ? 30 : 100
    await resetTabs(pages, warm)
    await sendSeries(ctx, path, warm, pacingMs(tabs))
    await waitForTabs(pages, warm, 3_000, true)
    await settle(pages, 300, 15_000)
    await resetTabs(pages, count)
    await sendSeries(ctx, path, count, pacingMs(tabs))
    await waitForTabs(pages, count, 5_000, true)
    const dumps = await dumpTabs(pages)
    const t0 = await firstArrivals(path, pages, count, dumps.map((d) => d.arrivalAt))
    const storeLat: number[] = []
    const commitLat: number[] = []
    let missing = 0
    for (const d of dumps) {
      for (let k = 1; k <= count; k++) {
        if (!(t0[k] > 0) || !(d.storeAt[k] > 0) || !(d.commitAt[k] > 0)) { missing++; continue }
        storeLat.push(d.storeAt[k] - t0[k])
        commitLat.push(d.commitAt[k] - t0[k])
      }
    }
    const isolated = await pages[0].evaluate(async () => ({ tabs: self.crossOriginIsolated, worker: await window.__bench!.workerIsolated() }))
    const projection = path === 'product' ? 'product store' : String(await pages[0].evaluate(() => window.__bench!.control('projection')))
    return {
      path, tabs, ok: true, store: summarize(storeLat), commit: summarize(commitLat), missing,
      lost: dumps.reduce((a, d) => a + Math.max(0, count - d.events), 0), duplicatedOrReordered: dumps.reduce((a, d) => a + d.duplicatedOrReordered, 0),
      projection, isolated, counterShort: dumps.reduce((a, d) => a + (count - d.counterDelta), 0),
    }
  } catch (e) {
    return latencyFailure(path, tabs, e)
  }
}

export const latencyFailure = (path: DeliveryPath, tabs: number, e: unknown): LatencyResult =>
  ({ path, tabs, ok: false, error: e instanceof Error ? e.message.split('\n')[0] : String(e) })

const ms = (v: number | undefined): string | number => (v === undefined || !Number.isFinite(v) ? '-' : round(v, 3))

export const latencyOutput = (results: ReadonlyArray<LatencyResult>, count: number): PartOutput => {
  const at = (path: DeliveryPath, tabs: number) => results.find((s) => s.path === path && s.tabs === tabs && s.ok)
  const p4 = at('product', 4)
  const targets: TargetCheck[] = [
    check('store updated p99 at 4 tabs (product)', '<= 2 ms', p4?.store?.p99, 'ms', (v) => v <= 2),
    check('React committed p99 at 4 tabs (product)', '<= 16 ms', p4?.commit?.p99, 'ms', (v) => v <= 16),
  ]
  for (const tabs of [...new Set(results.map((r) => r.tabs))]) {
    const p = at('product', tabs)
    const b = at('socket', tabs)
    targets.push(check(`shared path store p50 minus per-tab-socket p50 at ${tabs} tabs`, '<= +0.3 ms', p && b ? round(p.store!.p50 - b.store!.p50) : null, 'ms', (v) => v <= 0.3))
  }
  const sorted = [...results].sort((a, b) => a.tabs - b.tabs)
  return {
    tables: [{
      title: `Dispatch latency in ms from the frame reaching the browser's first socket (${count} messages per run and tab; samples = messages x tabs)`,
      columns: ['path', 'tabs', 'store p50', 'store p95', 'store p99', 'React p50', 'React p95', 'React p99', 'samples', 'missing', 'lost', 'dup/reordered', 'counter short', 'isolated tab/worker', 'note'],
      rows: sorted.map((s) => [
        s.path === 'product' ? 'product (used)' : s.path, s.tabs,
        ms(s.store?.p50), ms(s.store?.p95), ms(s.store?.p99), ms(s.commit?.p50), ms(s.commit?.p95), ms(s.commit?.p99),
        s.store?.n ?? 0, s.missing ?? '-', s.lost ?? '-', s.duplicatedOrReordered ?? '-', s.counterShort ?? '-',
        s.isolated ? `${s.isolated.tabs}/${s.isolated.worker ?? 'n/a'}` : '-',
        s.ok ? (s.path === 'product' ? '' : `tab reduces into ${s.projection}`) : `FAILED: ${s.error}`,
      ]),
    }],
    targets,
    product: at('product', 1) ? 'real' : 'missing',
    notes: [
      ...Object.values(PATH_LABEL),
      'Clock: performance.timeOrigin + performance.now() in the worker (a socket probe whose listener runs before the core\'s own) and in each tab. Pages are cross-origin isolated (COOP/COEP); the column says whether the worker is too (if not, its clock is coarsened to 0.1 ms).',
      't0 is the first arrival in the browser: the worker socket for the shared paths, the earliest tab socket for the per-tab baseline (so the socket skew between tabs counts against that baseline).',
      'Store: the tab store\'s subscription firing with the new state. React: useLayoutEffect of a component reading the store seq through the store hook (commit phase). Production build of React and of the core.',
      'Message k is the k-th counter event a tab receives after the reset; its store and React times are when the tab\'s store seq (read through the hook for React) reached that event\'s seq. "lost" = messages without an event in a tab; "counter short" = messages sent minus how far the coupon counter moved, summed over tabs (non-zero means the core loses increments).',
      'Messages are sendCouponMsg pushes (each bumps the coupon counter), paced 4 ms apart at 1 tab, 6 ms at 4 and 16 ms at 16 after a warm-up.',
      ...results.filter((s) => !s.ok).map((s) => `${s.path} x${s.tabs} failed: ${s.error}`),
    ],
    data: results,
  }
}
