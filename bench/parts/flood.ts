// Part 3: floods. 10 000 sendCouponMsg pushes written as fast as the push source can; converged when every tab's store
// shows exactly its counter + 10 000 (events or a snapshot, either way). Convergence time runs from the first frame
// written to the socket to the last tab's store reaching that counter.
import type { Page } from 'playwright-core'
import type { BenchContext } from '../lib/context.ts'
import { Skipped } from '../lib/path-session.ts'
import { check, type PartOutput, type TargetCheck } from '../lib/result.ts'
import { round } from '../lib/stats.ts'
import { dumpTabs, resetTabs, settle, waitForStores, type DeliveryPath } from '../lib/tabs.ts'
import { firstArrivals, pathName } from './dispatch.ts'

export interface FloodResult {
  readonly path: DeliveryPath
  readonly tabs: number
  readonly flood: number
  readonly ok: boolean
  readonly error?: string
  /** not run: the time budget ran out (reported, not a failure). */
  readonly skipped?: boolean
  /** every tab's store showed exactly its counter + flood. */
  readonly converged?: boolean
  /** ms from the first frame written to the last tab's store at the final counter (null: never converged). */
  readonly convergenceMs?: number | null
  /** the same for the median tab. */
  readonly medianTabMs?: number | null
  /** flood / convergence time: events per second every tab got. */
  readonly eventsPerSecond?: number | null
  /** how fast the frames reached the browser's socket(s): the ceiling the source and socket put on the run. */
  readonly arrivalPerSecond?: number | null
  readonly writeMs?: number
  /** tabs whose counter is exact, and the summed shortfall (negative: increments applied twice). */
  readonly tabsExact?: number
  readonly counterShort?: number
}

export const measureFlood = async (ctx: BenchContext, path: DeliveryPath, pages: Page[], flood: number, maxMs: number): Promise<FloodResult> => {
  const tabs = pages.length
  try {
    await settle(pages, 300, 15_000)
    await resetTabs(pages, flood)
    const write = await ctx.push.sendSeries(1, flood, 0)
    const converged = await waitForStores(pages, flood, { stallMs: 10_000, maxMs, commits: false })
    const dumps = await dumpTabs(pages)
    const reached = dumps.map((d) => (d.storeAt[flood] > 0 && d.progress.counter === d.progress.base + flood ? d.storeAt[flood] - write.firstWriteAt : null))
    const times = reached.filter((t): t is number => t !== null).sort((a, b) => a - b)
    const convergenceMs = converged && times.length === tabs ? times[times.length - 1] : null
    const t0 = await firstArrivals(path, pages, flood, dumps.map((d) => d.arrivalAt))
    const lastArrival = t0.reduce((a, t) => Math.max(a, t), 0)
    return {
      path, tabs, flood, ok: true, converged, convergenceMs,
      medianTabMs: times.length === tabs ? times[Math.floor((tabs - 1) / 2)] : null,
      eventsPerSecond: convergenceMs ? flood / (convergenceMs / 1000) : null,
      arrivalPerSecond: t0[1] > 0 && lastArrival > t0[1] ? flood / ((lastArrival - t0[1]) / 1000) : null,
      writeMs: write.lastWriteAt - write.firstWriteAt,
      tabsExact: reached.filter((t) => t !== null).length,
      counterShort: dumps.reduce((a, d) => a + (flood - (d.progress.counter - d.progress.base)), 0),
    }
  } catch (e) {
    return floodFailure(path, tabs, flood, e)
  }
}

export const floodFailure = (path: DeliveryPath, tabs: number, flood: number, e: unknown): FloodResult =>
  ({ path, tabs, flood, ok: false, skipped: e instanceof Skipped, error: e instanceof Error ? e.message.split('\n')[0] : String(e) })

const num = (v: number | null | undefined, digits = 0): string | number => (v === null || v === undefined ? '-' : round(v, digits))

export const floodOutput = (results: ReadonlyArray<FloodResult>): PartOutput => {
  const at = (path: DeliveryPath, tabs: number) => results.find((r) => r.path === path && r.tabs === tabs && r.ok)
  const tabCounts = [...new Set(results.map((r) => r.tabs))].sort((a, b) => a - b)
  const rate = (path: DeliveryPath, tabs: number) => at(path, tabs)?.eventsPerSecond ?? (at(path, tabs) ? 0 : null)
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || !(b > 0) ? null : round(a / b, 2))
  const targets: TargetCheck[] = [
    check('flood of 10 000 at 4 tabs: every store exact within (product, issue 13)', '<= 3000 ms', at('product', 4)?.convergenceMs ?? (at('product', 4) ? Infinity : null), 'ms', (v) => v <= 3_000),
    ...tabCounts.map((tabs) => check(`flood events/s product / raw-port baseline at ${tabs} tabs (issue 13)`, '>= 0.9', ratio(rate('product', tabs), rate('port', tabs)), 'x', (v) => v >= 0.9)),
    // the socket's arrival rate is the real ceiling: the product must deliver to every tab about as fast as frames arrive
    ...tabCounts.map((tabs) => check(`flood events/s per tab / arrival events/s at the socket, product at ${tabs} tabs (issue 21)`, '>= 0.9',
      ratio(rate('product', tabs), at('product', tabs)?.arrivalPerSecond ?? null), 'x', (v) => v >= 0.9)),
    check('product: events/s to one tab, every store exact (issue 5)', '>= 20000 ev/s', rate('product', 1), 'ev/s', (v) => v >= 20_000),
    check('product: events/s per tab at 4 tabs, every store exact (issue 5)', '>= 5000 ev/s', rate('product', 4), 'ev/s', (v) => v >= 5_000),
  ]
  const failures = results.filter((r) => r.ok && !r.converged)
    .map((r) => `flood ${pathName(r.path)} x${r.tabs}: ${r.tabsExact}/${r.tabs} tabs exact after the flood of ${r.flood} (short ${r.counterShort})`)
  const errors = results.filter((r) => !r.ok && !r.skipped).map((r) => `flood ${pathName(r.path)} x${r.tabs} errored: ${r.error}`)
  return {
    tables: [
      {
        title: 'Floods: pushes written as fast as the push source can, until every tab\'s store shows exactly its counter + flood',
        columns: ['path', 'tabs', 'flood', 'converged', 'convergence ms (last tab)', 'median tab ms', 'events/s per tab', 'arrival events/s at the socket', 'write ms', 'tabs exact', 'counter short', 'note'],
        rows: [...results].sort((a, b) => a.tabs - b.tabs).map((r) => [
          pathName(r.path), r.tabs, r.flood, r.converged ?? '-', num(r.convergenceMs), num(r.medianTabMs), num(r.eventsPerSecond), num(r.arrivalPerSecond),
          num(r.writeMs), r.ok ? `${r.tabsExact}/${r.tabs}` : '-', r.counterShort ?? '-', r.ok ? '' : `FAILED: ${r.error}`,
        ]),
      },
      {
        title: 'Flood events/s per tab against the raw-port baseline (iii), same run',
        columns: ['tabs', 'product ev/s', 'dedicated ev/s', 'port ev/s', 'product / port', 'dedicated / port'],
        rows: tabCounts.map((tabs) => [
          tabs, num(rate('product', tabs)), num(rate('dedicated', tabs)), num(rate('port', tabs)),
          ratio(rate('product', tabs), rate('port', tabs)), ratio(rate('dedicated', tabs), rate('port', tabs)),
        ]),
      },
    ],
    targets,
    failures,
    errors,
    product: at('product', 1) ? 'real' : 'missing',
    notes: [
      'Convergence is read from each tab\'s store (its coupon counter), not from counting events: a tab that catches up through a snapshot is correct, not loss. A flood that leaves any tab\'s counter off by even one, or stalls for 10 s, has not converged (and fails the run).',
      'Convergence time = the last tab\'s store first showing the final counter - the first frame written by the push source (same machine clock). Events/s per tab = flood / convergence time; 0 when it did not converge.',
      'When "arrival events/s" is close to "events/s per tab", the push source and socket were the bottleneck, not the delivery to tabs. The per-tab-socket baseline and the dedicated fallback get N copies of every frame.',
      ...results.filter((r) => !r.ok).map((r) => `${pathName(r.path)} x${r.tabs} failed: ${r.error}`),
    ],
    data: results,
  }
}
