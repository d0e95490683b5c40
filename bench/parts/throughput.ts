// Part 3: throughput. A burst of sendCouponMsg pushes sent as fast as the server can; events per second until every
// tab's store held the last one, with loss, duplication and reordering counted per tab.
import type { Page } from 'playwright-core'
import type { BenchContext } from '../lib/context.ts'
import { check, type PartOutput, type TargetCheck } from '../lib/result.ts'
import { round } from '../lib/stats.ts'
import { dumpTabs, resetTabs, settle, waitForTabs, type DeliveryPath } from '../lib/tabs.ts'
import { firstArrivals, sendSeries } from './dispatch.ts'

export interface BurstResult {
  readonly path: DeliveryPath
  readonly tabs: number
  readonly burst: number
  readonly ok: boolean
  readonly error?: string
  /** burst / (last store update in the slowest tab - first frame's arrival). */
  readonly eventsPerSecondPerTab?: number
  /** how fast the frames came in at the browser's socket(s): the ceiling the source put on the measurement. */
  readonly arrivalPerSecond?: number
  readonly complete?: boolean
  readonly lost?: number
  readonly duplicatedOrReordered?: number
  readonly notStored?: number
  readonly counterShort?: number
}

export const measureBurst = async (ctx: BenchContext, path: DeliveryPath, pages: Page[], burst: number): Promise<BurstResult> => {
  const tabs = pages.length
  try {
    await settle(pages, 300, 15_000)
    await resetTabs(pages, burst)
    await sendSeries(ctx, path, burst, 0)
    const complete = await waitForTabs(pages, burst, 5_000, false)
    const dumps = await dumpTabs(pages)
    const t0 = await firstArrivals(path, pages, burst, dumps.map((d) => d.arrivalAt))
    const lastStored = Math.max(...dumps.map((d) => d.storeAt[burst] || Infinity))
    const notStored = dumps.reduce((a, d) => a + d.storeAt.slice(1).filter((t) => !(t > 0)).length, 0)
    const lastArrival = t0.reduce((a, t) => Math.max(a, t), 0)
    return {
      path, tabs, burst, ok: true, complete,
      eventsPerSecondPerTab: complete ? burst / ((lastStored - t0[1]) / 1000) : 0,
      arrivalPerSecond: t0[1] > 0 ? burst / (Math.max(1e-3, lastArrival - t0[1]) / 1000) : undefined,
      lost: dumps.reduce((a, d) => a + Math.max(0, burst - d.events), 0),
      duplicatedOrReordered: dumps.reduce((a, d) => a + d.duplicatedOrReordered, 0),
      notStored, counterShort: dumps.reduce((a, d) => a + (burst - d.counterDelta), 0),
    }
  } catch (e) {
    return burstFailure(path, tabs, burst, e)
  }
}

export const burstFailure = (path: DeliveryPath, tabs: number, burst: number, e: unknown): BurstResult =>
  ({ path, tabs, burst, ok: false, error: e instanceof Error ? e.message.split('\n')[0] : String(e) })

const clean = (r: BurstResult | undefined): boolean =>
  !!r && r.ok && !!r.complete && r.lost === 0 && r.duplicatedOrReordered === 0 && r.notStored === 0 && r.counterShort === 0

export const throughputOutput = (results: ReadonlyArray<BurstResult>): PartOutput => {
  const at = (path: DeliveryPath, tabs: number) => results.find((r) => r.path === path && r.tabs === tabs && r.ok)
  const rateIfClean = (r: BurstResult | undefined) => (r ? (clean(r) ? round(r.eventsPerSecondPerTab!, 0) : 0) : null)
  const targets: TargetCheck[] = [
    check('product: events/s to one tab, zero loss', '>= 20000 ev/s', rateIfClean(at('product', 1)), 'ev/s', (v) => v >= 20_000),
    check('product: events/s per tab at 4 tabs, zero loss', '>= 5000 ev/s', rateIfClean(at('product', 4)), 'ev/s', (v) => v >= 5_000),
  ]
  return {
    tables: [{
      title: 'Throughput: a burst sent as fast as the server can, until every tab\'s store held the last event',
      columns: ['path', 'tabs', 'burst', 'events/s per tab', 'arrival events/s at the socket', 'complete', 'lost', 'dup/reordered', 'never stored', 'counter short', 'note'],
      rows: [...results].sort((a, b) => a.tabs - b.tabs).map((r) => [
        r.path === 'product' ? 'product (used)' : r.path, r.tabs, r.burst,
        r.eventsPerSecondPerTab !== undefined ? round(r.eventsPerSecondPerTab, 0) : '-',
        r.arrivalPerSecond !== undefined ? round(r.arrivalPerSecond, 0) : '-',
        r.complete ?? '-', r.lost ?? '-', r.duplicatedOrReordered ?? '-', r.notStored ?? '-', r.counterShort ?? '-',
        r.ok ? '' : `FAILED: ${r.error}`,
      ]),
    }],
    targets,
    product: at('product', 1) ? 'real' : 'missing',
    notes: [
      'Events/s per tab = burst / (the slowest tab\'s store holding the last event - the first frame reaching the browser). Each tab checks that event ids arrive exactly once and in order (lost = gaps, dup/reordered = ids at or below the last seen).',
      'When "arrival events/s" is close to "events/s per tab", the server and socket were the bottleneck, not the delivery to tabs. The per-tab-socket baseline gets N copies of every frame from the server.',
      '"counter short" = events sent minus how far the tab\'s coupon counter moved, summed over tabs: a burst only counts as zero-loss if the state is right too.',
      'A run that stalls for 5 s is cut off and counted as incomplete.',
      ...results.filter((r) => !r.ok).map((r) => `${r.path} x${r.tabs} failed: ${r.error}`),
    ],
    data: results,
  }
}
