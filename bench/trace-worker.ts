// `npx tsx bench/trace-worker.ts [--tabs=4] [--flood=3000] [--paced=MS] [--dedicated | --path=port] [--label=NAME]`: a Chromium trace
// (CDP Tracing through playwright-core, V8 CPU sampling on) of the core's worker during a flood of sendCouponMsg pushes
// (or, with --paced, the same number of pushes MS apart: the dispatch-latency load),
// fed by the bench push source to tabs of the bench page on the product path (unminified, so names are readable).
// Writes the trace to bench/results/traces/worker-NAME.json (open it in DevTools' Performance panel) and a summary
// of where the worker's time per frame goes (top self-time functions) to bench/results/trace-NAME.md.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import type { CDPSession } from 'playwright-core'
import { launchChromium } from './lib/browser.ts'
import { startBenchPages } from './lib/bench-pages.ts'
import type { BenchContext } from './lib/context.ts'
import { resultsDir } from './lib/paths.ts'
import { openPathTabs } from './lib/product-tabs.ts'
import { startPushSource } from './lib/push-source.ts'
import { startReferenceServer } from './lib/reference-server.ts'
import { round } from './lib/stats.ts'
import { resetTabs, settle, waitForStores, type DeliveryPath } from './lib/tabs.ts'
import { isCoreWorker, profiles, selfTimes, type TraceEvent } from './lib/trace-profile.ts'

const arg = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const tabCount = Number(arg('tabs', '4'))
const flood = Number(arg('flood', '3000'))
const dedicated = process.argv.includes('--dedicated')
const pacedMs = Number(arg('paced', '0'))
const label = arg('label', 'latest')
const log = (m: string): void => console.log(`[trace] ${m}`)

const CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'v8.execute',
  'disabled-by-default-v8.cpu_profiler', 'blink.user_timing',
]

const readStream = async (cdp: CDPSession, handle: string): Promise<string> => {
  const parts: string[] = []
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle, size: 1 << 20 })
    parts.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data)
    if (chunk.eof) break
  }
  await cdp.send('IO.close', { handle })
  return parts.join('')
}

const main = async (): Promise<void> => {
  log('starting the reference server, the push source, Chromium and the (unminified) bench pages')
  const [server, push, browser] = await Promise.all([startReferenceServer(), startPushSource(), launchChromium()])
  const pages = await startBenchPages({ apiTarget: server.url, pushUrl: push.url, minify: false })
  const ctx: BenchContext = { quick: true, browser, pages, push, server, serverError: null, productCore: true, log, skipped: (run) => log(`skipped: ${run}`) }
  const context = await browser.newContext()
  try {
    const path: DeliveryPath = dedicated ? 'dedicated' : arg('path', 'product') === 'port' ? 'port' : 'product'
    const tabs = await openPathTabs(ctx, context, path, tabCount)
    log(`${tabCount} ${path} tabs open; warming up`)
    await resetTabs(tabs, 200)
    await push.sendSeries(1, 200, 0)
    await waitForStores(tabs, 200, { stallMs: 10_000, maxMs: 60_000, commits: false })
    await settle(tabs, 500, 15_000)
    const cdp = await browser.newBrowserCDPSession()
    await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' } })
    log(`tracing ${pacedMs > 0 ? `${flood} pushes ${pacedMs} ms apart` : `a flood of ${flood}`}`)
    await resetTabs(tabs, flood)
    const write = await push.sendSeries(1, flood, pacedMs)
    const converged = await waitForStores(tabs, flood, { stallMs: 10_000, maxMs: 60_000, commits: false })
    const doneAt = performance.timeOrigin + performance.now()
    const complete = new Promise<{ stream?: string }>((resolve) => cdp.once('Tracing.tracingComplete', resolve))
    await cdp.send('Tracing.end')
    const { stream } = await complete
    if (!stream) throw new Error('the trace came back without a stream')
    const text = await readStream(cdp, stream)
    const tracesDir = join(resultsDir, 'traces')
    mkdirSync(tracesDir, { recursive: true })
    const traceFile = join(tracesDir, `worker-${label}.json`)
    writeFileSync(traceFile, text)
    const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[]
    const events = Array.isArray(parsed) ? parsed : parsed.traceEvents ?? []
    const all = profiles(events)
    // the core's worker, or for the raw-port baseline the bench's SharedWorker (the one worker thread that ran JS)
    const workers = path === 'port' ? all.filter((p) => /Worker/.test(p.thread)) : all.filter(isCoreWorker)
    if (workers.length === 0) throw new Error(`no core worker profile among ${all.length} profiled threads (${all.map((p) => p.thread).join(', ')})`)
    const { busyMs, idleMs, top } = selfTimes(workers)
    const tabThreads = all.filter((p) => /CrRendererMain/.test(p.thread))
    const tabTimes = selfTimes(tabThreads)
    const perFrameUs = (ms: number) => round((ms * 1000) / flood, 1)
    const md = [
      `# Where the core worker's time goes during ${pacedMs > 0 ? `pushes ${pacedMs} ms apart` : 'a flood'} (${label})`, '',
      `${new Date().toISOString()}; ${tabCount} tabs on the ${path} path; ${pacedMs > 0 ? `${flood} sendCouponMsg pushes ${pacedMs} ms apart` : `flood of ${flood} sendCouponMsg pushes`} from the bench push source; `
        + `converged: ${converged} in ${round(doneAt - write.firstWriteAt, 0)} ms from the first frame; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} CPUs.`, '',
      `Worker thread(s) profiled: ${workers.map((w) => w.thread).join(', ')}. Busy ${round(busyMs, 1)} ms (${perFrameUs(busyMs)} µs per frame), idle ${round(idleMs, 1)} ms while traced.`, '',
      '| self time ms | % of busy | µs per frame | function (unminified bench build, file:line) |', '|---|---|---|---|',
      ...top.slice(0, 25).map((t) => `| ${round(t.ms, 1)} | ${round((100 * t.ms) / busyMs, 1)} | ${perFrameUs(t.ms)} | ${t.fn.replace(/\|/g, '\\|')} |`),
      '', `Tab main threads profiled: ${tabThreads.length}. Busy ${round(tabTimes.busyMs, 1)} ms (${perFrameUs(tabTimes.busyMs)} µs per frame, all tabs).`, '',
      '| self time ms | % of busy | µs per frame | function (tab threads) |', '|---|---|---|---|',
      ...tabTimes.top.slice(0, 15).map((t) => `| ${round(t.ms, 1)} | ${round((100 * t.ms) / tabTimes.busyMs, 1)} | ${perFrameUs(t.ms)} | ${t.fn.replace(/\|/g, '\\|')} |`),
      '', '(program): native work V8 cannot attribute to a JS function (task dispatch, message (de)serialisation, IndexedDB bindings); (garbage collector): GC pauses.',
      '', `Trace: ${traceFile.replace(/^.*\/bench\//, 'bench/')} (not committed; DevTools > Performance > Load profile).`, '',
    ].join('\n')
    writeFileSync(join(resultsDir, `trace-${label}.md`), md)
    console.log(md)
  } finally {
    await context.close()
    await Promise.allSettled([browser.close(), pages.close(), push.close(), server.close()])
  }
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e)
  process.exit(1)
})
