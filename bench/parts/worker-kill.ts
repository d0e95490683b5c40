// Part 3b: the worker killed during a flood (as Android may kill a SharedWorker under memory pressure). Phase 1: a
// flood, and the core's worker killed from outside through the DevTools protocol (bench/lib/kill-worker.ts) once the
// first tab shows 40 % of it; the tabs must
// reattach on their own, the push socket reopen, and every tab's store settle on exactly the new worker's state (read
// by a fresh tab). Phase 2: a second flood after the reattach must reach every tab exactly.
import type { Page } from 'playwright-core'
import type { BenchContext } from '../lib/context.ts'
import { withPathTabs } from '../lib/path-session.ts'
import { openTab, control, dumpTabs, resetTabs, settle, tabProgress, waitForStores, type DeliveryPath } from '../lib/tabs.ts'
import { pathUrl, waitFor } from '../lib/product-tabs.ts'
import type { PartOutput } from '../lib/result.ts'
import { round } from '../lib/stats.ts'
import { pathName } from './dispatch.ts'
import { killWorkers } from '../lib/kill-worker.ts'

interface KillResult {
  readonly path: DeliveryPath
  readonly tabs: number
  readonly ok: boolean
  readonly error?: string
  /** the tabs did not even open (a setup error, not a convergence failure). */
  readonly notOpened?: boolean
  readonly flood1?: number
  readonly flood2?: number
  /** frames the source wrote to a live socket during phase 1 (frames sent while no socket was open are gone). */
  readonly written1?: number
  /** ms from the kill to the push source seeing the reopened socket(s). */
  readonly reopenMs?: number | null
  /** sockets the push source saw opened from the kill to the end (the shared core should reopen exactly one). */
  readonly socketsOpened?: number
  /** what the first tab showed of flood 1 when it killed the worker: the new worker must have kept at least that. */
  readonly shownBeforeKill?: number
  /** the new worker's coupon counter minus the one before phase 1 (shared path: read by a fresh tab). */
  readonly workerKept?: number | null
  /** tabs whose store equals the worker's state after phase 1. */
  readonly tabsAtWorkerState?: string
  /** phase 1 counters moved per tab. */
  readonly tabsKept?: number[]
  readonly phase2Exact?: string
  readonly phase2Ms?: number | null
  readonly converged?: boolean
}

const workerName = (path: DeliveryPath) => `bench-kill-${path}`

const killOnce = async (ctx: BenchContext, path: DeliveryPath, pages: Page[], flood1: number, flood2: number): Promise<KillResult> => {
  const tabs = pages.length
  const sockets = path === 'dedicated' ? tabs : 1
  await settle(pages, 300, 15_000)
  const before = (await tabProgress(pages)).map((p) => p.counter)
  await resetTabs(pages, flood1)
  ctx.push.resetCounters()
  const openedBefore = ctx.push.counters().socketsOpened
  // the worker is killed from outside once the first tab's store shows 40 % of the flood (the tab marks the moment,
  // armed before it: mid-flood whatever the runtime's speed); what that tab showed just before the kill must survive it
  const base = (await tabProgress([pages[0]]))[0].counter
  await control(pages[0], 'armKill', base + Math.floor(flood1 * 0.4))
  const writing = ctx.push.sendSeries(1, flood1, 0)
  await waitFor('the first tab to show 40 % of the flood', async () => (await control(pages[0], 'killedAt')) !== null, 60_000)
  const shown = (await tabProgress([pages[0]]))[0].counter - base
  const killedAt = Date.now()
  await killWorkers(pages[0], workerName(path))
  const write1 = await writing
  ctx.log(`worker kill: killed at ${shown} of ${flood1}; waiting for the reattach`)
  await waitFor('the push socket to reopen after the kill', async () => ctx.push.counters().socketsOpened > openedBefore && ctx.push.open() >= sockets, 60_000)
  const reopenMs = Date.now() - killedAt
  ctx.log(`worker kill: push socket reopened after ${reopenMs} ms`)
  await Promise.all(pages.map((p) => waitFor('the tab to see its push socket open again', async () => (await control(p, 'pushStatus')) === 'open', 30_000)))
  await settle(pages, 1_000, 30_000)
  let workerCounter: number | null = null
  let checker: Page | null = null
  if (path === 'product') {
    // a tab opened now paints from the new worker's snapshot: that is the worker's state
    checker = await openTab(pages[0].context(), pathUrl(ctx, path))
    workerCounter = (await tabProgress([checker]))[0].counter
    await waitFor('every tab to show the worker\'s state', async () => (await tabProgress(pages)).every((p) => p.counter === workerCounter), 15_000).catch(() => undefined)
  }
  const after1 = (await tabProgress(pages)).map((p) => p.counter)
  const atWorker = workerCounter === null ? null : after1.filter((c) => c === workerCounter).length
  const all = checker ? [...pages, checker] : pages
  await resetTabs(all, flood2)
  const write2 = await ctx.push.sendSeries(1, flood2, 0)
  const exact2 = await waitForStores(all, flood2, { stallMs: 10_000, maxMs: 60_000, commits: false })
  const dumps = await dumpTabs(all)
  const reached = dumps.filter((d) => d.storeAt[flood2] > 0 && d.progress.counter === d.progress.base + flood2)
  const phase2Ms = exact2 ? Math.max(...reached.map((d) => d.storeAt[flood2] - write2.firstWriteAt)) : null
  await checker?.close()
  return {
    path, tabs, ok: true, flood1, flood2, written1: write1.written, reopenMs, shownBeforeKill: shown,
    socketsOpened: ctx.push.counters().socketsOpened - openedBefore,
    workerKept: workerCounter === null ? null : workerCounter - before[0],
    tabsAtWorkerState: atWorker === null ? 'n/a' : `${atWorker}/${tabs}`,
    tabsKept: after1.map((c, i) => c - before[i]),
    phase2Exact: `${reached.length}/${all.length}`,
    phase2Ms,
    converged: exact2 && (atWorker === null || atWorker === tabs) && Math.min(...after1.map((c, i) => c - before[i])) >= shown,
  }
}

export const runWorkerKill = async (ctx: BenchContext): Promise<PartOutput> => {
  const flood1 = ctx.quick ? 3_000 : 5_000
  const flood2 = 2_000
  const scenarios: Array<{ path: DeliveryPath; tabs: number }> = ctx.quick ? [{ path: 'product', tabs: 4 }] : [{ path: 'product', tabs: 4 }, { path: 'dedicated', tabs: 2 }]
  const results: KillResult[] = []
  for (const { path, tabs } of scenarios) {
    ctx.log(`worker kill: ${path} x${tabs} tabs, flood of ${flood1} with a kill at 40 %, then ${flood2}`)
    await withPathTabs(ctx, path, [tabs], async (pages) => {
      try {
        ctx.log(`worker kill: ${pages.length} tabs open`)
        results.push(await killOnce(ctx, path, pages, flood1, flood2))
      } catch (e) {
        results.push({ path, tabs, ok: false, error: e instanceof Error ? e.message.split('\n')[0] : String(e) })
      }
    }, (n, e) => results.push({ path, tabs: n, ok: false, notOpened: true, error: e instanceof Error ? e.message.split('\n')[0] : String(e) }), Infinity, { worker: workerName(path) })
  }
  // a reattach that never happens is a convergence failure too, so errors once the tabs are open are failures
  const errors = results.filter((r) => r.notOpened).map((r) => `worker kill ${pathName(r.path)} x${r.tabs}: tabs did not open: ${r.error}`)
  const failures = results.filter((r) => !r.notOpened && (!r.ok || !r.converged)).map((r) => r.ok
    ? `worker kill ${pathName(r.path)} x${r.tabs}: shown before the kill ${r.shownBeforeKill}, tabs kept ${r.tabsKept?.join('/')}, tabs at the worker's state ${r.tabsAtWorkerState}, exact after the second flood ${r.phase2Exact}`
    : `worker kill ${pathName(r.path)} x${r.tabs}: ${r.error}`)
  return {
    tables: [{
      title: 'Worker killed during a flood: reattach and convergence',
      columns: ['path', 'tabs', 'flood 1 (kill at 40 %)', 'written to a live socket', 'shown before the kill', 'socket reopened after ms', 'sockets opened', 'worker kept', 'tabs kept', 'tabs at the worker\'s state', 'flood 2', 'flood 2 exact', 'flood 2 converged ms', 'note'],
      rows: results.map((r) => [
        pathName(r.path), r.tabs, r.flood1 ?? '-', r.written1 ?? '-', r.shownBeforeKill ?? '-', r.reopenMs ?? '-', r.socketsOpened ?? '-', r.workerKept ?? '-',
        r.tabsKept?.join(' / ') ?? '-', r.tabsAtWorkerState ?? '-', r.flood2 ?? '-', r.phase2Exact ?? '-',
        r.phase2Ms === null || r.phase2Ms === undefined ? '-' : round(r.phase2Ms, 0), r.ok ? '' : `FAILED: ${r.error}`,
      ]),
    }],
    failures,
    errors,
    product: results.some((r) => r.ok) ? 'real' : 'missing',
    notes: [
      'The kill comes from outside, as the OS kills a worker (issue 21): the DevTools protocol closes the SharedWorker\'s target (Target.closeTarget) once the first tab shows 40 % of flood 1; no code of the worker runs, and the tabs find out on their own (the worker\'s lifetime Web Lock), as they would after Android killed it. A dedicated Worker\'s target cannot be closed (it dies with its page): in the dedicated rows every tab\'s worker is frozen by the debugger instead, and each tab finds out by its ping timeout.',
      'Frames written while no socket was open are gone (no server replays them), and a frame the dead worker had received but nobody had shown yet may go with it: "worker kept" can be below "flood 1". What must hold: no tab loses what any tab had shown before the kill ("tabs kept" >= "shown before the kill"), every tab ends on exactly the new worker\'s state (a fresh tab\'s snapshot), and flood 2 then reaches every tab exactly.',
      'The dedicated fallback (full run) has a worker per tab, all frozen at once; there is no shared worker state to compare, so only flood 2 is checked.',
      ...results.filter((r) => !r.ok).map((r) => `${pathName(r.path)} x${r.tabs} failed: ${r.error}`),
    ],
    data: results,
  }
}
