// Lighthouse (mobile, simulated throttling) on the built app: the login page logged out and the home page logged in.
// `npx vite build && npx tsx scripts/lighthouse.ts` — Lighthouse itself is not a dependency of the app (it needs
// Node 22): set LIGHTHOUSE_BIN to an installed `lighthouse` binary, or it is run through `npx --yes lighthouse@13`.
// Prints the category scores and writes the JSON reports to test-results/lighthouse/. BASELINE_DIST=<another
// build's dist> measures both builds in the same batch (below). LIGHTHOUSE_ARGS: more arguments for each Lighthouse
// run, e.g. `--additional-trace-categories=mojom,fonts` (with KEEP_RUNS=1 the traces stay in test-results/lighthouse).
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { chromium } from 'playwright-core'
import { chromiumArgsDisabling } from '../tests/chromium.ts'
import { startAppServer } from './app-server.ts'
import { compressTasks, pageMainThread, preemptedSpans, withoutPreemption, type TimedEvent } from './lighthouse-on-core.ts'
import { holdPagePriority, pagePriorityMode } from './page-priority.ts'

const run = promisify(execFile)
const DEBUG_PORT = Number(process.env.LIGHTHOUSE_PORT ?? 9339)
const outDir = 'test-results/lighthouse'
mkdirSync(outDir, { recursive: true })

// ON_CORE=cpu or ON_CORE=preempted: each run is audited a second time from its artifacts with the page's tasks as a
// quiet machine would have run them (scripts/lighthouse-on-core.ts), printed beside the measured score as `onCore`.
// `preempted` records the kernel's scheduler switches meanwhile with `perf` (root, Debian's linux-perf).
const onCore = process.env.ON_CORE === 'cpu' || process.env.ON_CORE === 'preempted' ? process.env.ON_CORE : null

// PAGE_PRIORITY=main or PAGE_PRIORITY=renderer: measured with the page's renderer (its main thread; or that and, behind
// it, its other threads) ahead of every other thread on the machine (scripts/page-priority.ts, root). Chromium's spare
// renderer is turned off then: a spare renderer raised to nice -20 could commit the navigation before its tracing
// began, and Lighthouse failed about one run in three for a trace with no navigationStart (NO_NAVSTART).
const pagePriority = pagePriorityMode(process.env.PAGE_PRIORITY)
const launchArgs = chromiumArgsDisabling(pagePriority ? ['SpareRendererForSitePerProcess'] : [])
const priority = pagePriority ? holdPagePriority(pagePriority) : null // before anything starts: it throws without root
const condition = pagePriority ? ` (PAGE_PRIORITY=${pagePriority})` : ''

// the scheduler's switches on every core while `gather` runs, as `perf script` prints them
const recordSwitches = async (gather: () => Promise<unknown>): Promise<string> => {
  const data = join(mkdtempSync(join(tmpdir(), 'lighthouse-perf-')), 'sched.data')
  const perf = spawn('perf', ['record', '-q', '-e', 'sched:sched_switch', '-k', 'mono', '-a', '-o', data], { stdio: 'ignore' })
  const exited = new Promise((resolve) => perf.once('exit', resolve))
  await new Promise((resolve, reject) => {
    perf.once('error', () => reject(new Error('ON_CORE=preempted needs `perf` (Debian: linux-perf) and root')))
    void exited.then(() => reject(new Error('perf record stopped before the run (ON_CORE=preempted needs root)')))
    setTimeout(resolve, 500)
  })
  try {
    await gather()
  } finally {
    perf.kill('SIGINT')
    await exited
  }
  const { stdout } = await run('perf', ['script', '-i', data, '-F', 'time,event,trace'], { maxBuffer: 512 * 1024 * 1024 })
  rmSync(dirname(data), { recursive: true, force: true })
  return stdout
}

const lighthouse = async (url: string, name: string): Promise<Record<string, number>> => {
  const [bin, ...pre] = (process.env.LIGHTHOUSE_BIN ?? 'npx --yes lighthouse@13').split(' ')
  const report = join(outDir, `${name}.json`)
  const artifacts = join(outDir, `${name}-artifacts`)
  const options = ['--disable-storage-reset', '--only-categories=accessibility,performance,best-practices', '--output=json', '--quiet']
  const gatherOnce = () => run(bin, [
    ...pre, url, `--port=${DEBUG_PORT}`, ...options, `--output-path=${report}`, '--save-assets',
    ...(onCore ? [`-GA=${artifacts}`] : []), ...(process.env.LIGHTHOUSE_ARGS?.split(' ').filter(Boolean) ?? []),
  ], { maxBuffer: 64 * 1024 * 1024 })
  // Lighthouse's own trace recording sometimes misses the navigation's start (NO_NAVSTART, once in ~40 plain runs
  // here) and asks to be run again: the run is gathered once more, and says so
  const gather = () => gatherOnce().catch((error: { stderr?: string }) => {
    if (!String(error.stderr ?? '').includes('NO_NAVSTART')) throw error
    console.log(`${name}: Lighthouse recorded no navigation start (NO_NAVSTART); gathered again`)
    return gatherOnce()
  })
  const switches = onCore === 'preempted' ? await recordSwitches(gather) : (await gather(), '')
  const assets = [`${name}-0.trace.json`, `${name}-0.devtoolslog.json`].map((f) => join(outDir, f))
  // with ON_CORE the gathered trace as Lighthouse saved it for `-A` (the asset adds its metrics' marks to it), read once
  const tracePath = onCore ? join(artifacts, 'defaultPass.trace.json') : assets[0]!
  const trace = JSON.parse(readFileSync(tracePath, 'utf8')) as { traceEvents: TimedEvent[] }
  const cpuShare = longTaskCpuShare(trace)
  if (!process.env.KEEP_RUNS) for (const f of assets) rmSync(f, { force: true })
  const json = readReport(report)
  const failed = Object.entries(json.audits)
    .filter(([, a]) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
    .map(([id]) => id)
  console.log(`${name}: failing binary audits: ${failed.join(', ') || 'none'}`)
  const scores = Object.fromEntries(Object.entries(json.categories).map(([k, v]) => [k, v.score]))
  const tbt = Math.round(json.audits['total-blocking-time']?.numericValue ?? Number.NaN)
  // Lighthouse's own CPU benchmark of the machine at the run's start (higher is faster)
  const cpuIndex = Math.round(json.environment?.benchmarkIndex ?? Number.NaN)
  if (!onCore) return { ...scores, tbt, cpuShare, cpuIndex }
  const page = pageMainThread(trace.traceEvents)
  compressTasks(trace.traceEvents, onCore === 'preempted' && page ? withoutPreemption(preemptedSpans(switches, page.tid)) : undefined)
  writeFileSync(tracePath, JSON.stringify(trace))
  const onCoreReport = join(outDir, `${name}-on-core.json`)
  await run(bin, [...pre, url, `-A=${artifacts}`, ...options, `--output-path=${onCoreReport}`], { maxBuffer: 64 * 1024 * 1024 })
  if (!process.env.KEEP_RUNS) rmSync(artifacts, { recursive: true, force: true })
  const estimate = readReport(onCoreReport)
  return {
    ...scores, tbt, cpuShare, cpuIndex,
    onCore: estimate.categories.performance?.score ?? Number.NaN,
    onCoreTbt: Math.round(estimate.audits['total-blocking-time']?.numericValue ?? Number.NaN),
  }
}

const readReport = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as {
  categories: Record<string, { score: number }>
  audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string; numericValue?: number }>
  environment?: { benchmarkIndex?: number }
}

// The page's tasks over 12.5 ms (those Lighthouse's simulation turns into blocking time, 4× their observed length −
// 50 ms), their thread CPU time over their wall time: what Lighthouse multiplies by 4 as if it were the page's work
// is mostly waiting (on a core, on the browser's replies, on helper threads). Reported per run beside the score. It
// does not tell a quiet machine from a busy one (19–39 % on both here); `benchmarkIndex` does only roughly, and a
// quick bench beside the batch plainly (docs/performance.md).
function longTaskCpuShare(trace: { traceEvents: TimedEvent[] }): number {
  const nav = pageMainThread(trace.traceEvents)
  if (nav === undefined) return Number.NaN
  const long = trace.traceEvents.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ph === 'X' && e.name === 'RunTask'
    && e.ts >= nav.ts && (e.dur ?? 0) > 12_500)
  const sum = (f: (e: TimedEvent) => number) => long.reduce((a, e) => a + f(e), 0)
  return Math.round((100 * sum((e) => e.tdur ?? 0)) / sum((e) => e.dur ?? 0))
}

// BASELINE_DIST=<dir of another build>: both builds measured in the same batch, runs alternating in order, so a
// change is judged against its baseline on the same machine at the same time (this VM's speed drifts by 2x between
// batches). Each build has its own server (origin) and data.
const baseline = process.env.BASELINE_DIST
const builds = [{ name: 'this build', dir: undefined as string | undefined }, ...(baseline ? [{ name: 'baseline', dir: baseline }] : [])]
const dataDirs = builds.map(() => mkdtempSync(join(tmpdir(), 'lighthouse-data-')))
const profile = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'))
const servers = await Promise.all(builds.map((b, i) => startAppServer(dataDirs[i]!, b.dir)))
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...launchArgs, `--remote-debugging-port=${DEBUG_PORT}`],
  locale: 'zh-CN',
})
// RUNS=5: each page measured that many times against the one server (started once: a server starting up competes
// with the page for the CPU), with the median printed
const runs = Math.max(1, Number(process.env.RUNS ?? 1))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
type Figures = Record<'login' | 'home', { performance: number[]; tbt: number[]; cpuShare: number[]; cpuIndex: number[]; onCore: number[] }>
const noFigures = () => ({ performance: [], tbt: [], cpuShare: [], cpuIndex: [], onCore: [] })
const results = builds.map((): Figures => ({ login: noFigures(), home: noFigures() }))
try {
  for (const server of servers) {
    // a first visit warms the server and the browser's caches (the first run after a start reads low)
    const warm = await context.newPage()
    await warm.goto(`${server.url}#/pages/login/login`)
    await warm.getByTestId('login-phone').waitFor()
    await warm.close()
  }
  for (let i = 0; i < runs; i++) {
    const order = builds.map((_, b) => b)
    if (i % 2 === 1) order.reverse()
    for (const b of order) {
      const server = servers[b]!
      const scores: Record<string, Record<string, number>> = {}
      // KEEP_RUNS=1: every run's report is kept (login-2.json …), to compare a low run's trace with a high one's
      const name = (page: string) => `${b === 0 ? '' : 'baseline-'}${page}${process.env.KEEP_RUNS ? `-${i + 1}` : ''}`
      scores.login = await lighthouse(`${server.url}#/pages/login/login`, name('login'))
      const page = await context.newPage()
      await page.goto(`${server.url}#/pages/login/login`)
      await page.getByTestId('login-phone').fill('13800138000')
      await page.getByTestId('login-password').fill('Demo@2026')
      await page.getByTestId('login-submit').click()
      await page.getByTestId('device-item').first().waitFor()
      await page.close()
      scores.home = await lighthouse(`${server.url}#/pages/index/index`, name('home'))
      console.log(builds[b]!.name)
      console.table(scores)
      for (const p of ['login', 'home'] as const) {
        results[b]![p].performance.push(scores[p]!.performance!)
        results[b]![p].tbt.push(scores[p]!.tbt!)
        results[b]![p].cpuShare.push(scores[p]!.cpuShare!)
        results[b]![p].cpuIndex.push(scores[p]!.cpuIndex!)
        if (onCore) results[b]![p].onCore.push(scores[p]!.onCore!)
      }
    }
  }
  builds.forEach((build, b) => {
    const r = results[b]!
    const line = (xs: number[]) => `${median(xs)} (${xs.join(', ')})`
    console.log(`${build.name}: performance${condition}, median of ${runs}: login ${line(r.login.performance)}, home ${line(r.home.performance)}`)
    console.log(`${build.name}: total blocking time, ms: login ${line(r.login.tbt)}, home ${line(r.home.tbt)}`)
    console.log(`${build.name}: long tasks' CPU time as % of their wall time: login ${line(r.login.cpuShare)}, home ${line(r.home.cpuShare)}`)
    console.log(`${build.name}: Lighthouse's CPU benchmark of the machine (benchmarkIndex, higher is faster): login ${line(r.login.cpuIndex)}, home ${line(r.home.cpuIndex)}`)
    if (onCore) console.log(`${build.name}: performance with the tasks as on a quiet machine (ON_CORE=${onCore}, an estimate), median of ${runs}: login ${line(r.login.onCore)}, home ${line(r.home.onCore)}`)
  })
  if (builds.length === 2) {
    for (const p of ['login', 'home'] as const) {
      const ratio = median(results[0]![p].tbt) / median(results[1]![p].tbt)
      console.log(`${p}: median total blocking time, this build / baseline: ${ratio.toFixed(2)}`)
    }
  }
  if (priority) console.log(`PAGE_PRIORITY=${pagePriority}: ${priority.stop()} renderers held ahead of the machine`)
} finally {
  await context.close()
  for (const server of servers) server.stop()
  rmSync(profile, { recursive: true, force: true })
  setTimeout(() => { for (const d of dataDirs) rmSync(d, { recursive: true, force: true }) }, 500)
}
