// Part 9: the phone's picture. Tap to pixels on the built app's viewer (the product path: tab -> core SharedWorker ->
// stream socket -> reference phone -> H.264 -> core -> the tab's decoder worker) against a baseline page whose own
// dedicated worker owns the stream socket and feeds the same product decoder worker (bench/pages/phone.html), in
// alternating blocks; decode time and drops; bytes per second and server CPU per preset; one phone in three tabs;
// a hidden tab. Timing is reported, never asserted: the part fails only when a stream showed no frames at all.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { logInThroughScreen } from '../lib/app-session.ts'
import { phoneContext } from '../lib/browser.ts'
import type { BenchContext } from '../lib/context.ts'
import { serveProductBuild, type ServedApp } from '../lib/product-build.ts'
import { DEMO_PHONE, type ReferenceServer } from '../lib/reference-server.ts'
import { check, type PartOutput, type Table, type TargetCheck } from '../lib/result.ts'
import { round, summarize, type Summary } from '../lib/stats.ts'
import { startStreamProxy, type StreamProxy } from '../lib/stream-proxy.ts'
import { PRESET_SETTINGS, STREAM_PATH, STREAM_PRESETS, type StreamPreset } from '../../worker/protocol/stream.ts'
import { PHONE_SCREEN } from '../../worker/protocol/stream.ts'
import { LAYOUT } from '../../server/devices/sim/phone.ts'
import { presetFrameSize } from '../../worker/protocol/phone-screen.ts'
import { OPS_TOKEN_FILE, OPS_TOKEN_HEADER } from '../../server/ops/routes.ts'

interface DecoderStats { fps: number; framesDecoded: number; framesDropped: number; decodeP50: number | null; decodeP99: number | null }
interface TapProbe {
  downs: number[]
  markers: Array<[number, number]>
  stats: DecoderStats | null
  size: { width: number; height: number } | null
  last(): number | null
  /** what the app sees of a tab going to the background: visibilityState 'hidden' and a visibilitychange event. */
  hide(): void
  waitTap(expected: number, downIndex: number, timeoutMs: number): Promise<{ down: number | null; at: number | null }>
}
declare global {
  interface Window {
    __tapProbe?: TapProbe
  }
}

/**
 * Installed before any page script, on both paths (a string: tsx would wrap named functions in helpers the page lacks).
 * Sets the viewer's probe flag; records the wall clock (timeOrigin + now, the decoder worker's clock too) of every
 * pointerdown on the phone canvas in the capture phase (before the viewer's own handler runs), every 'phone-marker'
 * the canvas dispatches ({value, at}: at = when the decoder worker had the frame), and the decoder worker's 'stats' and
 * 'size' messages (its Worker, named 'phone-decoder', is wrapped to listen).
 */
const PROBE_SCRIPT = `(() => {
  globalThis.__PHONE_PROBE__ = true;
  const wall = () => performance.timeOrigin + performance.now();
  const probe = {
    downs: [], markers: [], stats: null, size: null,
    last() { const m = probe.markers[probe.markers.length - 1]; return m ? m[0] : null; },
    hide() {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return 'hidden'; } });
      Object.defineProperty(document, 'hidden', { configurable: true, get() { return true; } });
      document.dispatchEvent(new Event('visibilitychange'));
    },
    waitTap(expected, index, timeoutMs) {
      return new Promise((resolve) => {
        const until = performance.now() + timeoutMs;
        const look = () => {
          const down = probe.downs[index];
          if (down !== undefined) {
            let found = null;
            for (let i = probe.markers.length - 1; i >= 0 && probe.markers[i][1] >= down; i--) if (probe.markers[i][0] === expected) found = probe.markers[i][1];
            if (found !== null) return resolve({ down, at: found });
          }
          if (performance.now() > until) return resolve({ down: down === undefined ? null : down, at: null });
          setTimeout(look, 2);
        };
        look();
      });
    },
  };
  globalThis.__tapProbe = probe;
  document.addEventListener('pointerdown', (e) => {
    const t = wall();
    if (e.target && e.target.dataset && e.target.dataset.testid === 'phone-canvas') probe.downs.push(t);
  }, true);
  document.addEventListener('phone-marker', (e) => {
    probe.markers.push([e.detail.value, e.detail.at]);
    if (probe.markers.length > 6000) probe.markers.splice(0, 3000);
  }, true);
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      if (!options || options.name !== 'phone-decoder') return;
      this.addEventListener('message', (e) => {
        const m = e.data;
        if (m && m.t === 'stats') probe.stats = m;
        else if (m && m.t === 'size') probe.size = { width: m.width, height: m.height };
      });
    }
  };
})();`

const CANVAS = '[data-testid="phone-canvas"]'
/** a spot in the phone's status bar, right of the clock and left of the battery: a tap there changes nothing but its
 * touch down still counts as an input (phone.ts: inputSeq counts touch down; tap() ignores y < statusBar). */
const TAP_SPOT = { x: 540 / PHONE_SCREEN.width, y: LAYOUT.statusBar / 2 / PHONE_SCREEN.height }
const TAP_PACE_MS = 300
const TAP_TIMEOUT_MS = 2_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const message = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e))

const waitUntil = async (what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return
    await sleep(100)
  }
  throw new Error(`timed out waiting for ${what}`)
}

// ---- the reference server's HTTP API, from node ----

interface ApiEnvelope<T> { status: number; msg?: string; data?: T }
const api = async <T>(server: ReferenceServer, token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiEnvelope<T>> => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return (await res.json()) as ApiEnvelope<T>
}

const demoCards = async (server: ReferenceServer, token: string): Promise<Map<string, number>> => {
  const list = await api<Array<{ userCardId: number; diskName: string }>>(server, token, 'GET', '/api/resources/v6/client/device/info/getDeviceList')
  if (list.status !== 0 || !list.data) throw new Error(`device list failed: ${list.msg}`)
  return new Map(list.data.map((d) => [d.diskName, d.userCardId]))
}

/** a card token for the baseline's own socket, from the same connect endpoint the viewer calls (5200 while starting). */
const connectCard = async (server: ReferenceServer, token: string, userCardId: number): Promise<string> => {
  for (let attempt = 0; attempt < 30; attempt++) {
    const r = await api<{ cardToken?: string }>(server, token, 'POST', '/api/resources/user/cloud/connect', { userCardId })
    if (r.status === 0 && r.data?.cardToken) return r.data.cardToken
    if (r.status !== 5200) throw new Error(`connect ${userCardId} failed: ${r.status} ${r.msg}`)
    await sleep(1_000)
  }
  throw new Error(`connect ${userCardId}: still starting after 30 s`)
}

/** the server's own view of a phone (GET /__ops/phone): null when this server has no such route. */
interface OpsPhone { encoding: boolean; viewers: number; sockets: number }
const opsPhone = async (server: ReferenceServer, userCardId: number): Promise<OpsPhone | null> => {
  try {
    const token = readFileSync(join(server.dataDir, OPS_TOKEN_FILE), 'utf8').trim()
    const res = await fetch(`${server.url}/__ops/phone?userCardId=${userCardId}`, { headers: { [OPS_TOKEN_HEADER]: token } })
    if (!res.ok) return null
    const body = (await res.json()) as ApiEnvelope<OpsPhone>
    return body.status === 0 && body.data ? body.data : null
  } catch {
    return null
  }
}

// ---- server CPU ----

let clockTicks = 0
const cpuSeconds = (pid: number): number => {
  clockTicks ||= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / clockTicks
}

// ---- pages ----

const probeOf = (page: Page) => page.evaluate(() => {
  const p = window.__tapProbe!
  return { markers: p.markers.length, last: p.last(), downs: p.downs.length, stats: p.stats, size: p.size }
})

const tapPoint = async (page: Page): Promise<{ x: number; y: number }> => {
  const box = await page.locator(CANVAS).boundingBox()
  if (!box) throw new Error('phone canvas has no box')
  return { x: box.x + box.width * TAP_SPOT.x, y: box.y + box.height * TAP_SPOT.y }
}

/** one tap: ms from the pointerdown in the page to the decoder's first frame showing it, null when none came. */
const timedTap = async (page: Page, at: { x: number; y: number }): Promise<number | null> => {
  const before = await page.evaluate(() => ({ value: window.__tapProbe!.last(), downs: window.__tapProbe!.downs.length }))
  if (before.value === null) return null
  await page.mouse.click(at.x, at.y)
  const r = await page.evaluate(([expected, index, timeout]) => window.__tapProbe!.waitTap(expected, index, timeout),
    [(before.value + 1) & 0xff, before.downs, TAP_TIMEOUT_MS] as const)
  return r.at === null || r.down === null ? null : r.at - r.down
}

/** taps every TAP_PACE_MS for ms (not waiting for the picture): the load of a person tapping. */
const tapFor = async (page: Page, ms: number): Promise<number> => {
  const at = await tapPoint(page)
  const end = Date.now() + ms
  let taps = 0
  while (Date.now() < end) {
    const started = Date.now()
    await page.mouse.click(at.x, at.y)
    taps += 1
    await sleep(Math.max(0, TAP_PACE_MS - (Date.now() - started)))
  }
  return taps
}

const framesShown = (page: Page, timeoutMs: number) =>
  waitUntil('decoded frames with the input marker', async () => (await probeOf(page)).markers > 0, timeoutMs)

const sizeIs = (page: Page, preset: StreamPreset, timeoutMs: number) => {
  const want = presetFrameSize(preset, 'portrait')
  return waitUntil(`the ${preset} picture (${want.width}x${want.height})`, async () => {
    const p = await probeOf(page)
    return p.size?.width === want.width && p.size.height === want.height && p.markers > 0
  }, timeoutMs)
}

const viewerUrl = (app: ServedApp, userCardId: number) => `${app.appUrl}#/package/cloudPhoneView/cloudPhoneView?userCardId=${userCardId}`

/** opens the viewer of a phone in a page of the (logged-in) context and picks 高清 (hd) in its quality sheet. */
const openViewer = async (page: Page, app: ServedApp, userCardId: number, navigate: boolean): Promise<void> => {
  if (navigate) await page.goto(viewerUrl(app, userCardId), { waitUntil: 'load', timeout: 60_000 })
  await page.locator('[data-testid="viewer"][data-phase="live"]').waitFor({ timeout: 60_000 })
  await framesShown(page, 30_000)
  await page.getByTestId('viewer-quality').click()
  await page.getByTestId('viewer-quality-hd').click()
  await sizeIs(page, 'hd', 20_000)
}

const openBaseline = async (ctx: BenchContext, app: ServedApp, userCardId: number, cardToken: string, preset: StreamPreset): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await ctx.browser.newContext(phoneContext)
  await context.addInitScript({ content: PROBE_SCRIPT })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const ws = `${app.origin.replace(/^http/, 'ws')}${STREAM_PATH}`
  await page.goto(ctx.pages.pageUrl('phone.html', { ws, cardId: userCardId, token: cardToken, preset }), { waitUntil: 'load', timeout: 60_000 })
  try {
    await sizeIs(page, preset, 30_000)
  } catch (e) {
    const closed = await page.evaluate(() => window.__phoneBaseline?.closed() ?? 'page did not start').catch(() => null)
    throw new Error(`baseline: ${message(e)}${closed ? ` (stream: ${closed})` : ''}${errors.length ? ` (page error: ${errors[0]})` : ''}`)
  }
  return { context, page }
}

// ---- the part ----

type PathName = 'product' | 'baseline'
interface TapSamples { ms: number[]; lost: number; blockP50: number[] }
const pathLabel: Record<PathName, string> = {
  product: 'product: the built app\'s viewer through the core',
  baseline: 'baseline: the page\'s own worker owns the socket, same decoder worker',
}

const r1 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : round(v, 1))
const r2 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : round(v, 2))

export const runPhoneStream = async (ctx: BenchContext): Promise<PartOutput> => {
  const server = ctx.server
  if (!server) throw new Error(`reference server not running: ${ctx.serverError}`)
  const quick = ctx.quick
  const blocks = quick ? 3 : 10
  const perBlock = quick ? 10 : 15
  const windowMs = quick ? 3_000 : 10_000
  const hiddenMs = 5_000
  const failures: string[] = []
  const errors: string[] = []
  const notes: string[] = []
  const tables: Table[] = []
  const targets: TargetCheck[] = []
  const data: Record<string, unknown> = {}

  const proxy: StreamProxy = await startStreamProxy(server.url)
  let app: ServedApp | null = null
  const contexts: BrowserContext[] = []
  try {
    ctx.log('phone: serving the production build (API through a byte-counting relay)')
    app = await serveProductBuild(proxy.url)
    const { token } = await server.request<{ token: string }>({ kind: 'mintToken', phone: DEMO_PHONE })
    const cards = await demoCards(server, token)
    const productCard = cards.get('云手机-01')
    const baselineCard = cards.get('云手机-02')
    if (productCard === undefined || baselineCard === undefined) throw new Error(`demo phones missing: ${[...cards.keys()].join(', ')}`)

    // (3, reference) server CPU with no stream open
    const cpuNoneStart = cpuSeconds(server.pid)
    await sleep(windowMs)
    const cpuNone = ((cpuSeconds(server.pid) - cpuNoneStart) / (windowMs / 1000)) * 100

    // ---- (1, 2) tap to pixels, product and baseline in alternating blocks ----
    ctx.log(`phone: opening the baseline page (${'云手机-02'}) and the product viewer (云手机-01), both at hd`)
    let baseline: { context: BrowserContext; page: Page } | null = null
    try {
      baseline = await openBaseline(ctx, app, baselineCard, await connectCard(server, token, baselineCard), 'hd')
      contexts.push(baseline.context)
    } catch (e) {
      failures.push(`baseline stream showed no frames: ${message(e)}`)
    }
    const productContext = await ctx.browser.newContext(phoneContext)
    contexts.push(productContext)
    await productContext.addInitScript({ content: PROBE_SCRIPT })
    const product = await productContext.newPage()
    let productOk = false
    try {
      await logInThroughScreen(product, app.appUrl)
      await openViewer(product, app, productCard, true)
      productOk = true
    } catch (e) {
      failures.push(`product viewer stream showed no frames: ${message(e)}`)
    }

    const samples: Record<PathName, TapSamples> = { product: { ms: [], lost: 0, blockP50: [] }, baseline: { ms: [], lost: 0, blockP50: [] } }
    const pages: Partial<Record<PathName, Page>> = {}
    if (productOk) pages.product = product
    if (baseline) pages.baseline = baseline.page
    const live = (Object.keys(pages) as PathName[])
    if (live.length > 0) {
      const spots = Object.fromEntries(await Promise.all(live.map(async (p) => [p, await tapPoint(pages[p]!)] as const))) as Record<PathName, { x: number; y: number }>
      for (const p of live) for (let i = 0; i < 3; i++) { await timedTap(pages[p]!, spots[p]); await sleep(TAP_PACE_MS) } // warm-up
      ctx.log(`phone: ${blocks} blocks of ${perBlock} taps per path, ${TAP_PACE_MS} ms apart, paths alternating`)
      for (let block = 0; block < blocks; block++) {
        const order: PathName[] = block % 2 === 0 ? ['product', 'baseline'] : ['baseline', 'product']
        for (const p of order) {
          const page = pages[p]
          if (!page) continue
          const inBlock: number[] = []
          for (let i = 0; i < perBlock; i++) {
            const started = Date.now()
            const ms = await timedTap(page, spots[p]).catch(() => null)
            if (ms === null) samples[p].lost += 1
            else inBlock.push(ms)
            await sleep(Math.max(0, TAP_PACE_MS - (Date.now() - started)))
          }
          samples[p].ms.push(...inBlock)
          if (inBlock.length) samples[p].blockP50.push(summarize(inBlock).p50)
        }
      }
    }
    const tapSummary: Partial<Record<PathName, Summary>> = {}
    for (const p of ['product', 'baseline'] as PathName[]) if (samples[p].ms.length) tapSummary[p] = summarize(samples[p].ms)
    const decode: Partial<Record<PathName, DecoderStats | null>> = {}
    for (const p of live) decode[p] = (await probeOf(pages[p]!)).stats
    const prod = tapSummary.product
    const base = tapSummary.baseline
    const ratio = (k: 'p50' | 'p95' | 'p99') => (prod && base ? prod[k] / base[k] : null)
    tables.push({
      title: `Tap to pixels at hd (720x1280, 30 fps): ms from pointerdown in the tab to the first decoded frame whose input marker shows that touch; ${blocks} alternating blocks of ${perBlock} taps per path, ${TAP_PACE_MS} ms apart`,
      columns: ['path', 'taps', 'lost', 'p50', 'p95', 'p99', 'max', 'mean', 'block p50s'],
      rows: (['product', 'baseline'] as PathName[]).map((p) => {
        const s = tapSummary[p]
        return [pathLabel[p], samples[p].ms.length, samples[p].lost, r1(s?.p50), r1(s?.p95), r1(s?.p99), r1(s?.max), r1(s?.mean),
          samples[p].blockP50.map((v) => round(v, 1)).join(' / ') || '-']
      }),
    }, {
      title: 'The core\'s hop: product / baseline',
      columns: ['p50 ratio', 'p95 ratio', 'p99 ratio', 'p50 difference (ms)'],
      rows: [[r2(ratio('p50')), r2(ratio('p95')), r2(ratio('p99')), prod && base ? r1(prod.p50 - base.p50) : '-']],
    }, {
      title: 'Decoder worker at hd after the taps (its own stats message: decode = packet handed to WebCodecs -> frame out, over its last 600 frames)',
      columns: ['path', 'decode p50 (ms)', 'decode p99 (ms)', 'frames decoded', 'frames dropped'],
      rows: (['product', 'baseline'] as PathName[]).map((p) => {
        const s = decode[p]
        return [pathLabel[p], r2(s?.decodeP50), r2(s?.decodeP99), s?.framesDecoded ?? '-', s?.framesDropped ?? '-']
      }),
    })
    targets.push(
      check('tap to pixels, product, hd (p50)', '<= 50 ms', prod ? round(prod.p50, 1) : null, 'ms', (v) => v <= 50),
      check('tap to pixels, product, hd (p95)', '<= 80 ms', prod ? round(prod.p95, 1) : null, 'ms', (v) => v <= 80),
      check('tap to pixels, product / baseline (p50)', '<= 1.1', ratio('p50') === null ? null : round(ratio('p50')!, 3), 'x', (v) => v <= 1.1),
    )
    data.taps = { samples, summary: tapSummary, decode }
    if (live.some((p) => decode[p] && decode[p]!.decodeP50 === null)) {
      notes.push('Decode time per frame: not measured. The decoder worker\'s stats carry decodeP50/decodeP99 = null: it keys each packet\'s submission time by the packet\'s pts and looks it up by the decoded VideoFrame\'s timestamp, but @yume-chan/scrcpy-decoder-webcodecs (video/codec/h26x.js) hands WebCodecs every chunk with timestamp 0, so no frame ever matches (the viewer\'s stats line shows no decode time either). A product bug for the decoder worker, not something the bench can read around without changing it.')
    }
    notes.push('Frames dropped = the decoder worker\'s framesDropped, which is the library\'s framesSkipped: frames decoded and drawn but superseded by a later frame within the same animation frame (never presented), counted since the decoder started.')
    if (baseline) {
      await baseline.context.close()
      contexts.splice(contexts.indexOf(baseline.context), 1)
    }

    // ---- (4) one phone in three tabs; (5) a hidden tab ----
    if (productOk) {
      const tabs: Page[] = [product]
      try {
        ctx.log(`phone: one phone in 1 and then 3 tabs (${windowMs / 1000} s windows while tapping)`)
        await waitUntil('the baseline socket to close', async () => proxy.counters().open <= 1, 10_000).catch(() => undefined)
        const bytesWhileTapping = async (tapper: Page) => {
          const before = proxy.counters().bytesDown
          const t0 = Date.now()
          await tapFor(tapper, windowMs)
          return ((proxy.counters().bytesDown - before) / (Date.now() - t0)) * 1000
        }
        const one = { bytesPerSecond: await bytesWhileTapping(product), sockets: proxy.counters().open, ops: await opsPhone(server, productCard) }
        for (let i = 0; i < 2; i++) {
          const page = await productContext.newPage()
          await openViewer(page, app, productCard, true)
          tabs.push(page)
        }
        const decodedBefore = await Promise.all(tabs.map(async (p) => (await probeOf(p)).markers))
        const three = { bytesPerSecond: await bytesWhileTapping(product), sockets: proxy.counters().open, ops: await opsPhone(server, productCard) }
        const decodedIn = (await Promise.all(tabs.map(async (p) => (await probeOf(p)).markers))).map((n, i) => n - decodedBefore[i]!)
        const visibility = await Promise.all(tabs.map((p) => p.evaluate(() => document.visibilityState)))
        const opsCell = (o: OpsPhone | null) => (o ? `${o.sockets} socket(s), ${o.viewers} channel(s) of this phone, encoder ${o.encoding ? 'running (1)' : 'none'}` : 'n/a (no /__ops/phone on this server)')
        tables.push({
          title: `One phone (云手机-01, hd) in 1 and in 3 tabs of one browser: what the server sends to that browser while tab 1 taps every ${TAP_PACE_MS} ms (${windowMs / 1000} s windows)`,
          columns: ['tabs', 'visible', 'stream sockets (server side, relay count)', 'server\'s view (/__ops/phone)', 'bytes/s server -> browser', 'x the 1-tab figure', 'frames each tab decoded in the window'],
          rows: [
            [1, 1, one.sockets, opsCell(one.ops), Math.round(one.bytesPerSecond), 1, '-'],
            [3, visibility.filter((v) => v === 'visible').length, three.sockets, opsCell(three.ops), Math.round(three.bytesPerSecond),
              r2(three.bytesPerSecond / one.bytesPerSecond), decodedIn.join(' / ')],
          ],
        })
        targets.push(
          check('1 phone in 3 tabs: stream sockets to the server', '1', three.sockets, 'sockets', (v) => v === 1),
          check('1 phone in 3 tabs: bytes from the server vs 1 tab', '~1x (<= 1.2)', round(three.bytesPerSecond / one.bytesPerSecond, 3), 'x', (v) => v <= 1.2),
          ...(three.ops ? [check('1 phone in 3 tabs: server channels for the phone (one encoder per phone)', '1', three.ops.viewers, 'channels', (v) => v === 1)] : []),
        )
        data.threeTabs = { one, three, decodedIn, visibility }
      } catch (e) {
        notes.push(`1 phone in 3 tabs: not measured: ${message(e)}`)
      }
      if (tabs.length === 3) {
        try {
          ctx.log('phone: a hidden tab')
          const [hidden, , front] = tabs as [Page, Page, Page]
          await front.bringToFront()
          await sleep(300)
          let method = 'page.bringToFront() of another tab'
          if ((await hidden.evaluate(() => document.visibilityState)) !== 'hidden') {
            // headless Chromium here keeps every page 'visible' (bringToFront, a minimized window and a background target
            // were all checked): the tab is hidden the way the app sees it, visibilityState and the visibilitychange event
            method = 'emulated: document.visibilityState = hidden + visibilitychange (headless Chromium keeps every page visible; bringToFront verified not to hide)'
            await hidden.evaluate(() => window.__tapProbe!.hide())
          }
          await sleep(1_500)
          const hiddenBefore = (await probeOf(hidden)).stats?.framesDecoded ?? null
          const frontBefore = (await probeOf(front)).stats?.framesDecoded ?? null
          await tapFor(front, hiddenMs)
          await sleep(1_200)
          const hiddenAfter = (await probeOf(hidden)).stats?.framesDecoded ?? null
          const frontAfter = (await probeOf(front)).stats?.framesDecoded ?? null
          const hiddenDecoded = hiddenBefore === null || hiddenAfter === null ? null : hiddenAfter - hiddenBefore
          const frontDecoded = frontBefore === null || frontAfter === null ? null : frontAfter - frontBefore
          tables.push({
            title: `A hidden tab: frames its decoder worker decoded while hidden, over ${hiddenMs / 1000} s while a visible tab of the same phone taps (decoder 'stats' framesDecoded)`,
            columns: ['how hidden', 'hidden tab: frames decoded', 'visible tab: frames decoded (control)'],
            rows: [[method, hiddenDecoded ?? '-', frontDecoded ?? '-']],
          })
          targets.push(check('hidden tab: frames decoded while hidden', '0', hiddenDecoded, 'frames', (v) => v === 0))
          data.hidden = { method, hiddenDecoded, frontDecoded }
        } catch (e) {
          notes.push(`hidden tab: not measured: ${message(e)}`)
        }
      }
    }
    await productContext.close()
    contexts.splice(contexts.indexOf(productContext), 1)

    // ---- (3) bytes and server CPU per preset, one stream (the baseline's socket, nothing else open) ----
    ctx.log(`phone: bytes and server CPU per preset (${windowMs / 1000} s idle and tapping windows, one stream)`)
    await waitUntil('the product\'s stream socket to close', async () => proxy.counters().open === 0, 20_000).catch(() => undefined)
    const presetRows: Array<Array<string | number>> = []
    const presetData: unknown[] = []
    try {
      const b = await openBaseline(ctx, app, baselineCard, await connectCard(server, token, baselineCard), 'smooth')
      contexts.push(b.context)
      for (const preset of STREAM_PRESETS) {
        if (preset !== 'smooth') {
          await b.page.evaluate((p) => window.__phoneBaseline!.setPreset(p), preset)
          await sizeIs(b.page, preset, 20_000)
        }
        await sleep(1_000)
        const measure = async (work: () => Promise<unknown>) => {
          const bytes0 = proxy.counters().bytesDown
          const cpu0 = cpuSeconds(server.pid)
          const t0 = Date.now()
          await work()
          const s = (Date.now() - t0) / 1000
          return { bytesPerSecond: (proxy.counters().bytesDown - bytes0) / s, cpuPercent: ((cpuSeconds(server.pid) - cpu0) / s) * 100 }
        }
        const idle = await measure(() => sleep(windowMs))
        const tapping = await measure(() => tapFor(b.page, windowMs))
        const { width, height } = presetFrameSize(preset, 'portrait')
        const { fps, bitrate } = PRESET_SETTINGS[preset]
        presetRows.push([preset, `${width}x${height}, ${fps} fps, ${bitrate / 1000} kbit/s`, Math.round(idle.bytesPerSecond), Math.round(tapping.bytesPerSecond),
          r1(idle.cpuPercent - cpuNone), r1(tapping.cpuPercent - cpuNone)])
        presetData.push({ preset, idle, tapping })
      }
      await b.context.close()
      contexts.splice(contexts.indexOf(b.context), 1)
    } catch (e) {
      notes.push(`bytes and CPU per preset: not measured: ${message(e)}`)
    }
    tables.push({
      title: `Bytes per second the server sends for one stream (counted on the server side of a relay) and the server process's CPU for it (/proc utime+stime of the reference server child over each ${windowMs / 1000} s window, minus the same window with no stream: ${r1(cpuNone)} %); idle = the clock's 1 frame a second, tapping = a tap every ${TAP_PACE_MS} ms`,
      columns: ['preset', 'encoder', 'bytes/s idle', 'bytes/s tapping', 'server CPU % per stream, idle', 'server CPU % per stream, tapping'],
      rows: presetRows,
    })
    data.presets = { cpuNone, presets: presetData }
    notes.push(
      'Tap to pixels: the page records performance.timeOrigin + performance.now() in a capture-phase pointerdown listener (before the viewer\'s handler), the decoder worker stamps the same wall clock when it has the decoded frame and reads the marker from it (probe mode); the first frame after the pointerdown whose marker equals the previous value + 1 ends the sample. Taps go to the status bar (x 540, y 24 of 720x1280): a touch down there counts as an input but changes nothing else.',
      'The product path is the built app (vite preview of the production build, logged in through the login screen) viewing 云手机-01; the baseline views 云手机-02 (same home screen) so that each path\'s taps do not make frames for the other; each page decodes only its own phone.',
      'The baseline page (bench/pages/phone.html) is served by the bench page server and connects its socket to the same preview server\'s /api proxy the product uses, so both sockets take the same hops: browser -> vite preview proxy -> byte-counting relay -> reference server.',
      'The core\'s own counters (api.streamStats()) are not reachable from the built app\'s page; the socket count is the server side\'s (stream connections open on the relay) and, where the server has it, /__ops/phone.',
      ...(quick ? ['Quick run: 30 taps per path and 3 s windows; the full run takes 150 taps per path and 10 s windows.'] : []),
    )
  } finally {
    for (const c of contexts) await c.close().catch(() => undefined)
    await app?.close().catch(() => undefined)
    await proxy.close()
  }
  return { tables, targets, notes, failures, errors, product: 'real', data }
}
