// Parts 1-3: each run gets a fresh browser context with its path's tabs (1, 4 or 16), and on those tabs the paced
// latency run and then the flood. The product and the raw-port baseline alternate at every tab count, so their
// ratios compare runs a minute apart at most, whatever else the machine is doing; at the tab counts with ratio targets
// (1 and 4) they alternate for LATENCY_ROUNDS latency-only rounds, pooled, because one sub-millisecond median moves by
// a third from run to run on a 2-core machine; each path runs first in half of the rounds.
import type { BenchContext } from '../lib/context.ts'
import { withPathTabs } from '../lib/path-session.ts'
import type { PartOutput } from '../lib/result.ts'
import type { DeliveryPath } from '../lib/tabs.ts'
import { latencyFailure, latencyOutput, measureLatency, type LatencyResult } from './dispatch.ts'
import { floodFailure, floodOutput, measureFlood, type FloodResult } from './flood.ts'

export const FLOOD = 10_000
/** paced latency runs of the product and the raw-port baseline, alternating, at the tab counts with ratio targets. */
export const LATENCY_ROUNDS = 4
const ROUND_TABS = [1, 4]

/**
 * The runs in order: at each tab count the product, the raw-port baseline (iii) and the dedicated fallback back to
 * back (their ratios are the targets), then the other two baselines. The quick run keeps what the issue-13 targets
 * need (product and raw-port baseline at 1, 4 and 16 tabs, floods of 10 000) and the dedicated fallback and the
 * per-tab socket and comlink baselines at 1 tab (the last two with floods of 2 000). Then the latency-only rounds 2 to
 * LATENCY_ROUNDS of the product and the raw-port baseline at 1 and 4 tabs.
 */
const plan = (ctx: BenchContext): Array<{ path: DeliveryPath; tabs: number; flood: number; round: number }> => {
  const tabCounts = (path: DeliveryPath) => (!ctx.quick || path === 'product' || path === 'port' ? [1, 4, 16] : [1])
  const floodSize = (path: DeliveryPath) => (ctx.quick && (path === 'socket' || path === 'comlink') ? 2_000 : FLOOD)
  const runs = (paths: DeliveryPath[]) =>
    [1, 4, 16].flatMap((tabs) => paths.filter((path) => tabCounts(path).includes(tabs)).map((path) => ({ path, tabs, flood: floodSize(path), round: 1 })))
  // later rounds: latency only (flood 0), the product and the baseline back to back, the baseline first in the even
  // rounds: whichever runs first meets the machine as the previous run left it, so each path goes first as often
  const rounds = Array.from({ length: LATENCY_ROUNDS - 1 }, (_, i) => i + 2).flatMap((round) =>
    ROUND_TABS.flatMap((tabs) => (round % 2 === 0 ? ['port', 'product'] as const : ['product', 'port'] as const).map((path) => ({ path, tabs, flood: 0, round }))))
  return [...runs(['product', 'port', 'dedicated']), ...rounds, ...runs(['socket']), ...runs(['comlink'])]
}

/** budgetMs: runs not started by then are recorded as skipped. */
export const runDelivery = async (ctx: BenchContext, budgetMs: number): Promise<{ dispatch: PartOutput; flood: PartOutput }> => {
  const deadline = Date.now() + budgetMs
  const count = ctx.quick ? 200 : 1000
  const latency: LatencyResult[] = []
  const floods: FloodResult[] = []
  for (const { path, tabs, flood, round } of plan(ctx)) {
    await withPathTabs(ctx, path, [tabs], async (pages) => {
      ctx.log(`delivery: ${path} x${tabs} tabs, round ${round}: ${count} paced messages${flood > 0 ? `, then a flood of ${flood}` : ''}`)
      // a run that hangs is cut off and recorded (its context is closed under it), the others still run
      const cut = setTimeout(() => void Promise.all(pages.map((p) => p.close())), ctx.quick ? 90_000 : 600_000)
      try {
        latency.push(await measureLatency(ctx, path, pages, count, round))
        if (flood > 0) floods.push(await measureFlood(ctx, path, pages, flood, ctx.quick ? 30_000 : 120_000))
      } finally {
        clearTimeout(cut)
      }
    }, (n, e) => {
      latency.push(latencyFailure(path, n, e, round))
      if (flood > 0) floods.push(floodFailure(path, n, flood, e))
    }, deadline)
  }
  return { dispatch: latencyOutput(latency, count), flood: floodOutput(floods) }
}
