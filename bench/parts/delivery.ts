// Parts 1-3: each run gets a fresh browser context with its path's tabs (1, 4 or 16), and on those tabs the paced
// latency run and then the flood. The product and the raw-port baseline run back to back at every tab count; at the tab
// counts with ratio targets (1 and 4) they then run more rounds (PAIRED_SESSIONS) side by side, taking turns in short
// blocks (bench/parts/paired-latency.ts), and the ratios pool every round's samples.
import type { BenchContext } from '../lib/context.ts'
import { cutOff, withPathTabs } from '../lib/path-session.ts'
import type { PartOutput } from '../lib/result.ts'
import type { DeliveryPath } from '../lib/tabs.ts'
import { latencyFailure, latencyOutput, measureLatency, type LatencyResult } from './dispatch.ts'
import { floodFailure, floodOutput, measureFlood, type FloodResult } from './flood.ts'
import { BLOCK_MESSAGES, measurePaired, PAIRED_BLOCKS, PAIRED_SESSIONS } from './paired-latency.ts'

export const FLOOD = 10_000
const ROUND_TABS = [1, 4]

type Run = { kind: 'path'; path: DeliveryPath; tabs: number; flood: number } | { kind: 'paired'; tabs: number; round: number }

/**
 * The runs in order: at each tab count the product, the raw-port baseline (iii) and the dedicated fallback back to
 * back, then the other two baselines. The quick run keeps what the issue-13 targets need (product and raw-port
 * baseline at 1, 4 and 16 tabs, floods of 10 000 except the baseline's at 16 tabs) and the dedicated fallback and the per-tab socket and comlink
 * baselines at 1 tab (the last two with floods of 2 000). Between them, the paired rounds 2, 3, ... of
 * the product and the raw-port baseline at 1 and 4 tabs (latency only).
 */
const plan = (ctx: BenchContext): Run[] => {
  const tabCounts = (path: DeliveryPath) => (!ctx.quick || path === 'product' || path === 'port' ? [1, 4, 16] : [1])
  // the raw-port baseline posts every frame to every tab with no flow control: at 16 tabs its flood takes 16-35 s on
  // two cores, longer than the quick run's cap, so the quick run measures it paced only (its flood ratio is full-run)
  const floodSize = (path: DeliveryPath, tabs: number) =>
    ctx.quick && (path === 'socket' || path === 'comlink') ? 2_000 : ctx.quick && path === 'port' && tabs === 16 ? 0 : FLOOD
  const runs = (paths: DeliveryPath[]): Run[] =>
    [1, 4, 16].flatMap((tabs) => paths.filter((path) => tabCounts(path).includes(tabs)).map((path) => ({ kind: 'path' as const, path, tabs, flood: floodSize(path, tabs) })))
  // round by round, alternating the tab counts while both have rounds left
  const paired = Array.from({ length: Math.max(...ROUND_TABS.map((tabs) => PAIRED_SESSIONS[tabs])) }, (_, i) => i + 2).flatMap((round) =>
    ROUND_TABS.filter((tabs) => round - 1 <= PAIRED_SESSIONS[tabs]).map((tabs): Run => ({ kind: 'paired', tabs, round })))
  return [...runs(['product', 'port', 'dedicated']), ...paired, ...runs(['socket']), ...runs(['comlink'])]
}

/** budgetMs: runs not started by then are recorded as skipped. */
export const runDelivery = async (ctx: BenchContext, budgetMs: number): Promise<{ dispatch: PartOutput; flood: PartOutput }> => {
  const deadline = Date.now() + budgetMs
  const count = ctx.quick ? 200 : 1000
  const latency: LatencyResult[] = []
  const floods: FloodResult[] = []
  for (const run of plan(ctx)) {
    if (run.kind === 'paired') {
      latency.push(...(await measurePaired(ctx, run.tabs, run.round, deadline)))
      continue
    }
    const { path, tabs, flood } = run
    await withPathTabs(ctx, path, [tabs], async (pages) => {
      ctx.log(`delivery: ${path} x${tabs} tabs: ${count} paced messages${flood > 0 ? `, then a flood of ${flood}` : ''}`)
      const cut = cutOff(ctx, pages)
      try {
        latency.push(await measureLatency(ctx, path, pages, count, 1))
        if (flood > 0) floods.push(await measureFlood(ctx, path, pages, flood, ctx.quick ? 30_000 : 120_000))
      } finally {
        clearTimeout(cut)
      }
    }, (n, e) => {
      latency.push(latencyFailure(path, n, e, 1))
      if (flood > 0) floods.push(floodFailure(path, n, flood, e))
    }, deadline)
  }
  return { dispatch: latencyOutput(latency, count, { sessions: ROUND_TABS.map((tabs) => `${PAIRED_SESSIONS[tabs]} at ${tabs} tab${tabs === 1 ? '' : 's'}`).join(', '), blocks: PAIRED_BLOCKS, messages: BLOCK_MESSAGES }), flood: floodOutput(floods) }
}
