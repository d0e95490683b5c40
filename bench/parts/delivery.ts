// Parts 1-3 in one browser session per delivery path: the tabs grow 1 -> 4 -> 16 and at each count the paced
// latency run and the throughput burst run on the same tabs.
import type { BenchContext } from '../lib/context.ts'
import { withPathTabs } from '../lib/path-session.ts'
import type { PartOutput } from '../lib/result.ts'
import type { DeliveryPath } from '../lib/tabs.ts'
import { latencyFailure, latencyOutput, measureLatency, type LatencyResult } from './dispatch.ts'
import { burstFailure, measureBurst, throughputOutput, type BurstResult } from './throughput.ts'

// the product and the stand-in of its design first: if the quick budget runs short, the comlink baseline goes
const PATHS: DeliveryPath[] = ['product', 'port', 'socket', 'comlink']
const TAB_COUNTS = [1, 4, 16]

/** budgetMs: tab counts not started within their path's share are recorded as skipped. */
export const runDelivery = async (ctx: BenchContext, budgetMs: number): Promise<{ dispatch: PartOutput; throughput: PartOutput }> => {
  const deadline = Date.now() + budgetMs
  const count = ctx.quick ? 100 : 1000
  const burst = ctx.quick ? 500 : 10_000
  const latency: LatencyResult[] = []
  const bursts: BurstResult[] = []
  for (const [i, path] of PATHS.entries()) {
    // each path gets an equal share of what is left, so one slow path cannot starve the others
    const pathDeadline = Date.now() + (deadline - Date.now()) / (PATHS.length - i)
    await withPathTabs(ctx, path, TAB_COUNTS, async (pages, tabs) => {
      ctx.log(`delivery: ${path} x${tabs} tabs: ${count} paced messages, then a burst of ${burst}`)
      latency.push(await measureLatency(ctx, path, pages, count))
      bursts.push(await measureBurst(ctx, path, pages, burst))
    }, (tabs, e) => {
      latency.push(latencyFailure(path, tabs, e))
      bursts.push(burstFailure(path, tabs, burst, e))
    }, pathDeadline)
  }
  return { dispatch: latencyOutput(latency, count), throughput: throughputOutput(bursts) }
}
