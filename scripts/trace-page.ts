// Where a page load's main-thread time goes, as Lighthouse's total blocking time sees it: the built app (build it
// unminified for readable names: `npx vite build --minify false`) served by the reference server, the page loaded
// with the CPU slowed 4x (CDP), a Chromium trace with V8 sampling, then each long task of the page's main thread with
// what it did (trace events) and the functions it spent its time in (inclusive, from the samples).
// `npx tsx scripts/trace-page.ts [--page=#/pages/index/index] [--logged-out] [--min=50] [--top=25] [--rate=4] [--categories=fonts]`
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { profiles, type TraceEvent } from '../bench/lib/trace-profile.ts'
import { chromiumArgs } from '../tests/chromium.ts'
import { startAppServer } from './app-server.ts'

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const pagePath = arg('page', '#/pages/index/index')
const loggedOut = process.argv.includes('--logged-out')
const minMs = Number(arg('min', '50'))
const top = Number(arg('top', '25'))
// --rate=1: the CPU as it is (Lighthouse's simulation multiplies each task it observed unthrottled by 4)
const rate = Number(arg('rate', '4'))
// --categories=fonts,blink: more trace categories (what a Layout task spent its time in)
const extra = arg('categories', '')

interface Event extends TraceEvent { readonly ts: number; readonly dur?: number; readonly args?: TraceEvent['args'] & { data?: { url?: string; functionName?: string; startTime?: number } } }

const dataDir = mkdtempSync(join(tmpdir(), 'trace-page-'))
const server = await startAppServer(dataDir)
const url = server.url
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs })
try {
  // Lighthouse's mobile screen
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, locale: 'zh-CN' })
  const login = await context.newPage()
  await login.goto(`${url}#/pages/login/login`)
  if (!loggedOut) {
    await login.getByTestId('login-phone').fill('13800138000')
    await login.getByTestId('login-password').fill('Demo@2026')
    await login.getByTestId('login-submit').click()
    await login.getByTestId('device-item').first().waitFor()
  }
  await login.close()
  const page = await context.newPage()
  await page.goto('about:blank')
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
  const events: Event[] = []
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as Event[])))
  await cdp.send('Tracing.start', { categories: ['devtools.timeline,v8.execute,disabled-by-default-v8.cpu_profiler,disabled-by-default-devtools.timeline', extra].filter(Boolean).join(','), transferMode: 'ReportEvents' })
  await page.goto(`${url}${pagePath}`)
  await new Promise((r) => setTimeout(r, 6_000))
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r))
  await cdp.send('Tracing.end')
  await complete

  const threads = new Map<string, string>()
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?')
  const onMain = (e: Event) => threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain'
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && onMain(e) && (e.dur ?? 0) > minMs * 1000)
  const first = tasks[0]?.ts ?? 0
  const blocking = tasks.reduce((a, t) => a + Math.max(0, (t.dur ?? 0) / 1000 - 50), 0)
  console.log(`${pagePath}: ${tasks.length} tasks over ${minMs} ms at ${rate}x; blocking time (each over 50 ms) ${blocking.toFixed(0)} ms`)
  const profile = profiles(events).find((p) => /CrRendererMain/.test(p.thread))
  const profileStart = events.find((e) => e.name === 'Profile' && onMain(e))?.args?.data?.startTime ?? 0
  const frame = (n: { callFrame: { functionName: string; url: string; lineNumber: number } }) =>
    `${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url ?? '').replace(/^.*\/assets\//, '')}:${n.callFrame.lineNumber + 1}`
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0)
    const what = new Map<string, number>()
    for (const e of events) {
      if (e.ph !== 'X' || e === task || e.pid !== task.pid || e.tid !== task.tid || e.ts < task.ts || e.ts + (e.dur ?? 0) > end) continue
      const key = [e.name, e.args?.data?.url?.replace(/.*\//, ''), e.args?.data?.functionName].filter(Boolean).join(' ')
      what.set(key, (what.get(key) ?? 0) + (e.dur ?? 0) / 1000)
    }
    console.log(`\n${((task.ts - first) / 1000).toFixed(0).padStart(6)} ms: task of ${((task.dur ?? 0) / 1000).toFixed(0)} ms — ${[...what].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('; ')}`)
    if (!profile) continue
    const inclusive = new Map<string, number>()
    let t = profileStart
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.deltas[i] ?? 0
      if (t < task.ts || t > end) continue
      const seen = new Set<string>()
      for (let node = profile.nodes.get(profile.samples[i]!); node; node = node.parent === undefined ? undefined : profile.nodes.get(node.parent)) {
        const key = frame(node)
        if (seen.has(key)) continue
        seen.add(key)
        inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.deltas[i + 1] ?? 0) / 1000)
      }
    }
    for (const [key, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).filter(([k]) => !k.startsWith('(root)')).slice(0, top)) console.log(`${ms.toFixed(1).padStart(9)}  ${key}`)
  }
} finally {
  await browser.close()
  server.stop()
  setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 500)
}
