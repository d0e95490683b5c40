// `npm run bench [-- --quick] [-- --only=dispatch,bundle] [-- --run-id=ID] [-- --convergence-report-only]`: runs every
// part in turn, keeps going when one fails, writes bench/results/latest.{json,md,svg} (with the run id) and exits 1 when
// any part errored, skipped a run for time or reported a failure (a flood, a reattach or a fan-out that did not
// converge); --convergence-report-only records convergence failures but does not fail the exit on them alone.
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cpus } from 'node:os'
import { resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium } from './lib/browser.ts'
import { startBenchPages, type BenchPages } from './lib/bench-pages.ts'
import type { BenchContext } from './lib/context.ts'
import { repoRoot } from './lib/paths.ts'
import { startPushSource, type PushSource } from './lib/push-source.ts'
import { startReferenceServer, type ReferenceServer } from './lib/reference-server.ts'
import { writeReport } from './lib/report.ts'
import { runFailed, type PartOutput, type PartResult } from './lib/result.ts'
import { runDelivery } from './parts/delivery.ts'
import { runWorkerKill } from './parts/worker-kill.ts'
import { runConnections } from './parts/connections.ts'
import { runFanout } from './parts/fanout.ts'
import { runBundle } from './parts/bundle.ts'
import { runColdStart } from './parts/cold-start.ts'
import { runMemory } from './parts/memory.ts'
import { runPhoneStream } from './parts/phone-stream.ts'
import { runWall } from './parts/wall.ts'
import { runGroupControl } from './parts/group-control.ts'
import { runStreamMemory } from './parts/stream-memory.ts'
import { runKeyCost } from './parts/key-cost.ts'
import { runChaos } from './parts/chaos.ts'
import { productBuild, removeProductBuilds } from './lib/product-build.ts'

interface Part {
  /** what the part reports; parts sharing one browser session report several. */
  readonly outputs: ReadonlyArray<{ readonly id: string; readonly title: string }>
  /** generous ceilings: a part that hangs is cut off and recorded as failed, the run goes on. */
  readonly limitMs: { quick: number; full: number }
  readonly run: (ctx: BenchContext) => Promise<Record<string, PartOutput>>
}

const single = (id: string, title: string, limitMs: Part['limitMs'], run: (ctx: BenchContext) => Promise<PartOutput>): Part =>
  ({ outputs: [{ id, title }], limitMs, run: async (ctx) => ({ [id]: await run(ctx) }) })

const parts: Part[] = [
  {
    outputs: [{ id: 'dispatch', title: '1-2. Dispatch latency and baselines' }, { id: 'flood', title: '3. Floods' }],
    limitMs: { quick: 360_000, full: 2_400_000 },
    run: (ctx) => runDelivery(ctx, ctx.quick ? 240_000 : 1_800_000),
  },
  single('kill', '3b. Worker killed during a flood', { quick: 400_000, full: 600_000 }, runWorkerKill),
  single('connections', '4. Connections and heartbeats', { quick: 60_000, full: 300_000 }, runConnections),
  single('fanout', '5. Reference server fan-out', { quick: 300_000, full: 900_000 }, runFanout),
  single('bundle', '6. Bundle', { quick: 90_000, full: 180_000 }, runBundle),
  single('coldstart', '7. Cold start', { quick: 120_000, full: 300_000 }, runColdStart),
  single('memory', '8. Memory', { quick: 90_000, full: 180_000 }, runMemory),
  single('phone', '9. The phone\'s picture', { quick: 240_000, full: 900_000 }, runPhoneStream),
  single('wall', '10. The wall', { quick: 180_000, full: 600_000 }, runWall),
  single('group', '11. Group control', { quick: 180_000, full: 900_000 }, runGroupControl),
  single('streammem', '12. Server memory while phones are dragged', { quick: 90_000, full: 180_000 }, runStreamMemory),
  single('keycost', '13. The idempotency key on the write path', { quick: 60_000, full: 180_000 }, runKeyCost),
  single('chaos', '14. Chaos, measured', { quick: 300_000, full: 900_000 }, runChaos),
]

const quick = process.argv.includes('--quick')
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',')
const runId = process.argv.find((a) => a.startsWith('--run-id='))?.slice('--run-id='.length) || randomUUID()
const convergenceReportOnly = process.argv.includes('--convergence-report-only')
const started = new Date()
const log = (message: string): void => console.log(`[bench +${((Date.now() - started.getTime()) / 1000).toFixed(1)}s] ${message}`)

const withLimit = <T,>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms).unref())])

const message = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0] : String(e))

const main = async (): Promise<number> => {
  const results: PartResult[] = []
  let browser: Browser | null = null
  let pages: BenchPages | null = null
  let push: PushSource | null = null
  let server: ReferenceServer | null = null
  let serverError: string | null = null
  try {
    log('starting the reference server (child process), the bench push source and Chromium')
    const [serverResult, pushSource, chromium] = await Promise.all([
      startReferenceServer().then((s) => s, (e: unknown) => { serverError = message(e); return null }),
      startPushSource(),
      launchChromium(),
    ])
    server = serverResult
    push = pushSource
    browser = chromium
    // the app build for the bundle and cold-start parts runs while the bench measures (memoized; errors surface there)
    if (!only || ['bundle', 'coldstart', 'memory', 'phone', 'group'].some((id) => only.includes(id))) productBuild().catch(() => undefined)
    log('building the bench pages')
    pages = await startBenchPages({ ...(server ? { apiTarget: server.url } : {}), pushUrl: push.url })
    log(`bench pages at ${pages.origin}${pages.base}bench/pages/, reference server ${server?.url ?? `not running (${serverError})`}`)
    // the runs the part now running did not start for want of time (BenchContext.skipped)
    let skipped: string[] = []
    const ctx: BenchContext = {
      quick, browser, pages, push, server, serverError, log,
      skipped: (run) => {
        skipped.push(run)
        log(`skipped: ${run}`)
      },
      productCore: existsSync(resolve(repoRoot, 'src/core/connect.ts')) && existsSync(resolve(repoRoot, 'worker/main.ts')),
    }
    for (const part of parts) {
      const ids = part.outputs.map((o) => o.id)
      if (only && !ids.some((id) => only.includes(id))) continue
      const t = Date.now()
      skipped = []
      log(`part ${ids.join('+')}: start`)
      try {
        const outs = await withLimit(part.run(ctx), quick ? part.limitMs.quick : part.limitMs.full, ids.join('+'))
        const durationMs = Date.now() - t
        for (const [i, { id, title }] of part.outputs.entries()) {
          const out = outs[id]
          // a part's skipped runs are listed once, under its first output (a delivery run is a dispatch and a flood)
          const skips = i === 0 ? [...(out?.skipped ?? []), ...skipped] : (out?.skipped ?? [])
          results.push(out ? { id, title, ok: true, durationMs, ...out, skipped: skips } : { id, title, ok: false, error: 'the part returned nothing', durationMs })
        }
        log(`part ${ids.join('+')}: ok`)
      } catch (e) {
        for (const { id, title } of part.outputs) results.push({ id, title, ok: false, error: message(e), durationMs: Date.now() - t })
        log(`part ${ids.join('+')}: failed: ${message(e)}`)
      }
    }
  } catch (e) {
    results.push({ id: 'setup', title: 'Setup', ok: false, error: message(e), durationMs: Date.now() - started.getTime() })
  } finally {
    const files = writeReport({
      runId,
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      quick,
      environment: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? '?', browser: browser?.version() ?? 'not started' },
      parts: results,
    })
    log(`wrote ${files.join(', ')} (run ${runId})`)
    for (const p of results) {
      if (!p.ok) log(`FAILED part ${p.id}: ${p.error}`)
      for (const e of p.errors ?? []) log(`FAILED ${e}`)
      for (const s of p.skipped ?? []) log(`FAILED skipped for time: ${s}`)
      for (const f of p.failures ?? []) log(`FAILED ${f}${convergenceReportOnly ? ' (reported only: --convergence-report-only)' : ''}`)
    }
    await Promise.allSettled([browser?.close(), pages?.close(), push?.close(), server?.close()])
    removeProductBuilds()
  }
  return runFailed(results, convergenceReportOnly) ? 1 : 0
}

main().then((code) => process.exit(code), (e: unknown) => {
  console.error(e)
  process.exit(1)
})
