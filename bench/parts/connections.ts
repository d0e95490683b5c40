// Part 4: push sockets and heartbeat frames per minute for N tabs, counted on the server side by the bench push source
// that both the product's core socket and the per-tab-socket baseline connect to.
import type { BenchContext } from '../lib/context.ts'
import { withPathTabs } from '../lib/path-session.ts'
import { round } from '../lib/stats.ts'
import type { PartOutput } from '../lib/result.ts'
import type { DeliveryPath } from '../lib/tabs.ts'
import { HEARTBEAT_INTERVAL_MS } from '../../worker/protocol/constants.ts'

interface Count { path: DeliveryPath; tabs: number; ok: boolean; error?: string; sockets?: number; heartbeats?: number; windowMs?: number }

/** heartbeat shortened through the core's test config (and the baseline's ?hb) so a short window holds many beats. */
const TEST_HEARTBEAT_MS = 500

const serverCounts = (ctx: BenchContext): { sockets: number; heartbeats: number } => {
  const c = ctx.push.counters()
  return { sockets: c.socketsOpen, heartbeats: c.heartbeats }
}

export const runConnections = async (ctx: BenchContext): Promise<PartOutput> => {
  const tabCounts = ctx.quick ? [4] : [1, 4, 16]
  const windowMs = ctx.quick ? 3_000 : 20_000
  const counts: Count[] = []
  for (const path of ['product', 'socket'] as DeliveryPath[]) {
    ctx.log(`connections: ${path} at ${tabCounts.join(', ')} tabs, ${windowMs / 1000} s windows`)
    await withPathTabs(ctx, path, tabCounts, async (_pages, tabs) => {
      try {
        await new Promise((r) => setTimeout(r, 1_000))
        const before = serverCounts(ctx)
        await new Promise((r) => setTimeout(r, windowMs))
        const after = serverCounts(ctx)
        counts.push({ path, tabs, ok: true, sockets: after.sockets, heartbeats: after.heartbeats - before.heartbeats, windowMs })
      } catch (e) {
        counts.push({ path, tabs, ok: false, error: e instanceof Error ? e.message : String(e) })
      }
    }, (tabs, e) => counts.push({ path, tabs, ok: false, error: e instanceof Error ? e.message.split('\n')[0] : String(e) }), Infinity, { hb: TEST_HEARTBEAT_MS })
  }
  const scale = TEST_HEARTBEAT_MS / HEARTBEAT_INTERVAL_MS
  return {
    tables: [{
      title: `Push sockets and heartbeat frames, counted by the servers (heartbeat shortened to ${TEST_HEARTBEAT_MS} ms, sampled ${windowMs / 1000} s, extrapolated to the spec's ${HEARTBEAT_INTERVAL_MS} ms)`,
      columns: ['path', 'tabs', 'open sockets', 'heartbeats in window', 'heartbeats/min at 8 s (extrapolated)', 'note'],
      rows: counts.map((c) => [
        c.path === 'product' ? 'product (used)' : 'per-tab socket baseline', c.tabs, c.sockets ?? '-', c.heartbeats ?? '-',
        c.ok ? round((c.heartbeats! / c.windowMs!) * 60_000 * scale, 1) : '-', c.ok ? '' : `FAILED: ${c.error}`,
      ]),
    }],
    product: counts.some((c) => c.path === 'product' && c.ok) ? 'real' : 'missing',
    notes: [
      `Heartbeats per minute = frames counted in the window x 60 s / window x ${TEST_HEARTBEAT_MS} / ${HEARTBEAT_INTERVAL_MS}: the spec's interval is 8 s, so one socket sends 7.5 a minute.`,
      'The product is run with its test-only core config (globalThis.__CORE_TEST_CONFIG__ = { heartbeatMs }); the baseline tabs take ?hb.',
    ],
    data: counts,
  }
}
