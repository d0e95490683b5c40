// Part 7: cold start of the built app. First contentful paint and device list painted, on a first visit and on a
// reload, with the CPU throttled 4x and a slow-4G network (CDP), plus the unthrottled reload to device list.
import type { CDPSession, Page } from 'playwright-core'
import { phoneContext } from '../lib/browser.ts'
import type { BenchContext } from '../lib/context.ts'
import { DEVICE_ITEM, devicePaintProbe, logInThroughScreen } from '../lib/app-session.ts'
import { serveProductBuild } from '../lib/product-build.ts'
import { check, type PartOutput } from '../lib/result.ts'
import { round, summarize } from '../lib/stats.ts'

/** DevTools' slow 4G as Lighthouse applies it: 150 ms RTT x 3.75, 1.6 Mbit/s x 0.9 down, 750 kbit/s x 0.9 up. */
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 }

const throttle = async (cdp: CDPSession, on: boolean): Promise<void> => {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: on ? 4 : 1 })
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', on ? SLOW_4G : { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
}

interface Paint { fcp: number | null; deviceList: number | null; phases: Record<Phase, number | null> }

/** The steps of a boot (src/main.tsx marks them, issue 12), from navigation start. */
const PHASES = ['html', 'boot:entry', 'boot:core-ready', 'boot:rendered'] as const
type Phase = (typeof PHASES)[number]
const PHASE_NAMES: Record<Phase, string> = {
  html: 'index.html received', 'boot:entry': 'entry JS runs', 'boot:core-ready': 'core\'s first state in the tab', 'boot:rendered': 'app rendered (React)',
}

/** FCP and device list paint of the page's current document, in ms from its navigation start. */
const paints = async (page: Page, wantDeviceList: boolean, timeoutMs: number): Promise<Paint> => {
  if (wantDeviceList) await page.locator(DEVICE_ITEM).first().waitFor({ timeout: timeoutMs }).catch(() => undefined)
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: timeoutMs }).catch(() => undefined)
  await page.waitForTimeout(100)
  return page.evaluate((phases) => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    deviceList: (window as unknown as { __deviceListPaintedAt?: number }).__deviceListPaintedAt ?? null,
    phases: Object.fromEntries(phases.map((p) => [p, p === 'html'
      ? (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseEnd ?? null
      : performance.getEntriesByName(p, 'mark')[0]?.startTime ?? null])) as Record<Phase, number | null>,
  }), [...PHASES])
}

const r = (v: number | null): number | string => (v === null ? '-' : round(v, 1))

export const runColdStart = async (ctx: BenchContext): Promise<PartOutput> => {
  if (!ctx.server) throw new Error(`reference server not running: ${ctx.serverError}`)
  ctx.log('cold start: serving the production build')
  const app = await serveProductBuild(ctx.server.url)
  const context = await ctx.browser.newContext(phoneContext)
  try {
    await context.addInitScript(devicePaintProbe)
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    const rows: Array<[string, Paint]> = []

    ctx.log('cold start: first visit, logged out, throttled')
    await throttle(cdp, true)
    await page.goto(`${app.appUrl}#/pages/login/login`, { waitUntil: 'commit', timeout: 120_000 })
    await page.getByTestId('login-page').waitFor({ timeout: 120_000 }).catch(() => undefined)
    rows.push(['first visit (empty cache, logged out) -> login screen', await paints(page, false, 60_000)])

    await throttle(cdp, false)
    await logInThroughScreen(page, app.appUrl)

    ctx.log('cold start: reload, throttled')
    await throttle(cdp, true)
    await page.reload({ waitUntil: 'commit', timeout: 120_000 })
    rows.push(['reload (warm cache, session stored), throttled', await paints(page, true, 120_000)])

    ctx.log('cold start: first visit with a stored session, empty cache, throttled')
    await cdp.send('Network.clearBrowserCache')
    await page.goto('about:blank')
    await page.goto(app.appUrl, { waitUntil: 'commit', timeout: 120_000 })
    rows.push(['first visit (empty cache, session stored), throttled', await paints(page, true, 120_000)])

    await throttle(cdp, false)
    const runs = ctx.quick ? 3 : 10
    const reloads: number[] = []
    const fcps: number[] = []
    const phases = new Map<Phase, number[]>(PHASES.map((p) => [p, []]))
    for (let i = 0; i < runs; i++) {
      await page.reload({ waitUntil: 'commit' })
      const p = await paints(page, true, 30_000)
      if (p.deviceList !== null) reloads.push(p.deviceList)
      if (p.fcp !== null) fcps.push(p.fcp)
      for (const phase of PHASES) if (p.phases[phase] !== null) phases.get(phase)!.push(p.phases[phase]!)
    }
    const reload = summarize(reloads)
    const median = (xs: number[]) => (xs.length ? summarize(xs).p50 : null)
    rows.push([`reload, unthrottled (median of ${runs})`, { fcp: median(fcps), deviceList: reloads.length ? reload.p50 : null, phases: {} as Paint['phases'] }])
    const throttledReload = rows[1][1]
    return {
      tables: [{
        title: 'Cold start of the built app (ms from navigation start; phone viewport)',
        columns: ['visit', 'first contentful paint', 'device list painted'],
        rows: rows.map(([name, p]) => [name, r(p.fcp), r(p.deviceList)]),
      }, {
        title: `Where a reload's time goes (ms from navigation start; unthrottled: median and p99 of ${runs}; throttled: the one run above)`,
        columns: ['step', 'unthrottled median', 'unthrottled p99', 'throttled'],
        rows: [
          ...PHASES.map((phase) => {
            const xs = phases.get(phase)!
            return [PHASE_NAMES[phase], r(median(xs)), r(xs.length ? summarize(xs).p99 : null), r(throttledReload.phases[phase])]
          }),
          ['device list painted', r(reloads.length ? reload.p50 : null), r(reloads.length ? reload.p99 : null), r(throttledReload.deviceList)],
        ],
      }],
      targets: [check('reload to device list painted, unthrottled (median)', '<= 300 ms', reloads.length ? round(reload.p50, 1) : null, 'ms', (v) => v <= 300)],
      product: 'real',
      notes: [
        'Throttled = CDP Emulation.setCPUThrottlingRate 4 and Network.emulateNetworkConditions slow 4G (562.5 ms latency, 1.47 Mbit/s down, 675 kbit/s up) on the page. The SharedWorker is a separate target: its own API requests are not network-throttled (and its CPU not slowed), so throttled figures are optimistic for the worker\'s share.',
        '"Device list painted" = the first animation frame after the first [data-testid="device-item"] is in the DOM (MutationObserver installed before any page script).',
        'Reload to device list: the unthrottled reload\'s device-list time in the new document (navigation start = 0).',
      ],
      data: { rows, reloads, phases: Object.fromEntries(phases) },
    }
  } finally {
    await context.close()
    await app.close()
  }
}
