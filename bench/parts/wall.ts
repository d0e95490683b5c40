// Part 10: the wall (issue 23 item 5). The sixty-phone account's home as 宫格 in 3 tabs of one browser (one core, one
// stream socket) against the per-tab-connection baseline (3 browser contexts, a core and a socket each, as a client
// without a shared core would be): stream sockets the server holds and the bytes it sends down them per second
// (counted by a relay in front of the server), a 4th tab painting every visible tile (the core's cache), the
// main-thread long tasks of the wall tabs while they show it, and how old the pictures on screen are (tile age).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { phoneContext } from '../lib/browser.ts'
import type { BenchContext } from '../lib/context.ts'
import { serveProductBuild } from '../lib/product-build.ts'
import { logInThroughScreen } from '../lib/app-session.ts'
import { FLEET_PHONE } from '../lib/reference-server.ts'
import { check, type PartOutput } from '../lib/result.ts'
import { startStreamProxy, type StreamProxy } from '../lib/stream-proxy.ts'
import { round, summarize } from '../lib/stats.ts'

const TABS = 3

/**
 * Installed before any page script: the page's long tasks, when the wall first mounted, and (checked every animation
 * frame from the document's start, not only once Playwright's navigation resolved) when every tile on screen first
 * showed its picture or a state with none to show. While `__ages` is an array: every 100 ms, the age of each picture
 * on screen (now minus the time the server drew it, the still's data-drawn-at; Date.now() on both sides), and each
 * still that replaces a tile's picture as [card, drawn, when the DOM had it].
 */
const wallProbe = (): void => {
  // tsx keeps function names with a __name helper that pages do not have: named inner functions need it
  const g = globalThis as unknown as { __name?: unknown }
  g.__name = g.__name || ((f: unknown) => f)
  const w = window as unknown as {
    __longTasks: number[]; __wallAt?: number; __tilesPaintedAt?: number; __ages?: number[] | null; __shows?: Array<[number, number, number]>
  }
  w.__longTasks = []
  setInterval(() => {
    const ages = w.__ages
    if (!Array.isArray(ages)) return
    const now = Date.now()
    for (const img of document.querySelectorAll<HTMLElement>('[data-testid="wall-still"][data-drawn-at]')) {
      const r = img.getBoundingClientRect()
      if (r.bottom > 0 && r.top < innerHeight) ages.push(now - Number(img.dataset.drawnAt))
    }
  }, 100)
  // a tile's picture replaced by a newer still (not a tile's first picture: that may be the core's cached one)
  new MutationObserver((records) => {
    if (!Array.isArray(w.__ages)) return
    const now = Date.now()
    for (const r of records) {
      const el = r.target as HTMLElement
      const drawn = Number(el.dataset?.drawnAt)
      const card = Number(el.closest<HTMLElement>('[data-testid="wall-tile"]')?.dataset.userCardId)
      if (r.oldValue !== null && Number.isFinite(drawn)) (w.__shows ??= []).push([card, drawn, now])
    }
  }).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-drawn-at'] })
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration)
    }).observe({ type: 'longtask', buffered: true })
  } catch { /* no longtask timing: counted as none */ }
  const frame = (): void => {
    const wall = document.querySelector('[data-testid="phone-wall"]')
    if (wall !== null) {
      w.__wallAt ??= performance.now()
      const tiles = [...wall.querySelectorAll('[data-testid="wall-tile"]')].filter((el) => {
        const r = el.getBoundingClientRect()
        return r.bottom > 0 && r.top < innerHeight
      })
      const waiting = tiles.some((t) => t.getAttribute('data-state') === 'loading' || t.getAttribute('data-state') === 'starting')
      if (tiles.length > 0 && !waiting) {
        w.__tilesPaintedAt = performance.now()
        return
      }
    }
    requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
}

const logIn = (page: Page, appUrl: string) => logInThroughScreen(page, appUrl, { phone: FLEET_PHONE, until: '[data-testid="home-view-bar"]' })

const showWall = async (page: Page): Promise<void> => {
  if ((await page.getByTestId('phone-wall').count()) === 0) await page.getByTestId('home-view-grid').click()
  await page.waitForFunction(() => (window as unknown as { __tilesPaintedAt?: number }).__tilesPaintedAt !== undefined, null, { timeout: 60_000 })
    .catch(async (e: unknown) => {
      const states = await page.evaluate(() => [...document.querySelectorAll('[data-testid="wall-tile"]')]
        .filter((el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight })
        .map((el) => el.getAttribute('data-state')))
      throw new Error(`the wall's visible tiles did not all paint: ${states.join(', ')} (${String(e)})`)
    })
}

const longTasks = (pages: ReadonlyArray<Page>) =>
  Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.length))).then((counts) => counts)

const longTasksOver50 = (pages: ReadonlyArray<Page>, from: ReadonlyArray<number>) =>
  Promise.all(pages.map((p, i) => p.evaluate((skip) => (window as unknown as { __longTasks: number[] }).__longTasks.slice(skip), from[i] ?? 0)))

interface Window {
  readonly sockets: number
  readonly bytesPerS: number
  readonly longTasks: number[]
  /** the pictures on screen in every tab, every 100 ms: ms since the server drew each (wallProbe). */
  readonly ages: number[]
  /** each still that replaced a tile's picture: ms from its drawing to the tab's DOM having it. */
  readonly delays: number[]
  /**
   * each change of the phones (but the last) and each tile of each tab: ms from the change to the tab's DOM having a
   * still drawn after it; and the tiles that had none by the window's end.
   */
  readonly behind: number[]
  readonly neverCaughtUp: number
  /** tiles with a picture on screen at the window's start, per tab. */
  readonly tilesOnScreen: number[]
}

type AgeWindow = { __ages?: number[] | null; __shows?: Array<[number, number, number]> }
/** starts the age samples; answers the cards whose tiles show a picture on screen now. */
const startAges = (pages: ReadonlyArray<Page>) => Promise.all(pages.map((p) => p.evaluate(() => {
  const w = window as unknown as AgeWindow
  w.__ages = []
  w.__shows = []
  return [...document.querySelectorAll<HTMLElement>('[data-testid="wall-still"][data-drawn-at]')].filter((img) => {
    const r = img.getBoundingClientRect()
    return r.bottom > 0 && r.top < innerHeight
  }).map((img) => Number(img.closest<HTMLElement>('[data-testid="wall-tile"]')?.dataset.userCardId))
})))
const stopAges = (pages: ReadonlyArray<Page>) => Promise.all(pages.map((p) => p.evaluate(() => {
  const w = window as unknown as AgeWindow
  const out = { ages: w.__ages ?? [], shows: w.__shows ?? [] }
  w.__ages = null
  return out
})))

/**
 * For each change (`changes`: the server's Date.now() once every phone had changed) and each tile on screen of each tab
 * (`cards`), how long the tile went on showing a picture from before it: to the tab's DOM having a still drawn after it.
 */
const behindChanges = (tabs: ReadonlyArray<{ shows: Array<[number, number, number]> }>, cards: ReadonlyArray<ReadonlyArray<number>>, changes: ReadonlyArray<number>) => {
  const behind: number[] = []
  let never = 0
  for (const [i, { shows }] of tabs.entries()) {
    for (const c of changes) {
      for (const card of cards[i] ?? []) {
        // a still drawn after the change (drawn in whole ms: strictly after, the change's own still is of the state before)
        const caught = shows.find((s) => s[0] === card && s[1] > c)
        if (caught) behind.push(caught[2] - c)
        else never += 1
      }
    }
  }
  return { behind, neverCaughtUp: never }
}

/**
 * Bytes the server sent down stream sockets over `ms` while every phone's picture changes each second (the worst case
 * for the wall: each usable phone sends a still a second), and the sockets open at its end.
 */
const measure = async (ctx: BenchContext, relay: StreamProxy, pages: ReadonlyArray<Page>, ms: number): Promise<Window> => {
  const server = ctx.server!
  const change = async (n: number) =>
    server.request<{ phones: number; at: number }>({ kind: 'changePhones', phone: FLEET_PHONE, tag: n % 2 === 0 ? '测试应用甲' : '测试应用乙' })
  await change(0)
  await new Promise((r) => setTimeout(r, 1_500))
  const before = relay.counters().bytesDown
  const tasksBefore = await longTasks(pages)
  const onScreen = await startAges(pages)
  // on a 1 s clock (a change's own time does not stretch the period)
  const start = Date.now()
  const changes: number[] = []
  for (let s = 1; s * 1000 <= ms; s++) {
    await new Promise((r) => setTimeout(r, Math.max(0, start + s * 1000 - Date.now())))
    changes.push((await change(s)).at)
  }
  const after = relay.counters()
  const tasks = (await longTasksOver50(pages, tasksBefore)).flat()
  // the last change's stills: up to a thumbnail tick, and the way to the tabs
  await new Promise((r) => setTimeout(r, 1_500))
  const shown = await stopAges(pages)
  return {
    sockets: after.open, bytesPerS: ((after.bytesDown - before) * 1000) / ms, longTasks: tasks,
    ages: shown.flatMap((a) => a.ages), delays: shown.flatMap((a) => a.shows.map((x) => x[2] - x[1])),
    ...behindChanges(shown, onScreen, changes),
    tilesOnScreen: onScreen.map((c) => c.length),
  }
}

export const runWall = async (ctx: BenchContext): Promise<PartOutput> => {
  if (!ctx.server) throw new Error(`reference server not running: ${ctx.serverError}`)
  const windowMs = ctx.quick ? 10_000 : 60_000
  const relay = await startStreamProxy(ctx.server.url)
  const app = await serveProductBuild(relay.url)
  const contexts: BrowserContext[] = []
  const newContext = async (browser: Browser) => {
    const c = await browser.newContext(phoneContext)
    await c.addInitScript(wallProbe)
    // the pop-up ads a login brings would cover the 宫格 switch (the e2e fixtures skip them the same way)
    await c.addInitScript(() => { try { sessionStorage.setItem('popUpAdsShown', '1') } catch { /* not the app's document */ } })
    contexts.push(c)
    return c
  }
  try {
    ctx.log(`wall: product, ${TABS} tabs of one browser on the 60-phone account`)
    const shared = await newContext(ctx.browser)
    const first = await shared.newPage()
    await logIn(first, app.appUrl)
    await showWall(first)
    const tabs = [first]
    for (let i = 1; i < TABS; i++) {
      const page = await shared.newPage()
      await page.goto(app.appUrl)
      await showWall(page)
      tabs.push(page)
    }
    // every tab is visible to the core (headless pages are): the union of their visible tiles is subscribed once
    const product = await measure(ctx, relay, tabs, windowMs)

    ctx.log('wall: a 4th tab paints the visible tiles from the core\'s cache')
    const opened: Array<{ nav: number; fromWall: number; want: number; still: number }> = []
    for (let i = 0; i < (ctx.quick ? 3 : 10); i++) {
      const page = await shared.newPage()
      await page.goto(app.appUrl)
      await showWall(page)
      opened.push(await page.evaluate(() => {
        const w = window as unknown as { __tilesPaintedAt: number; __wallAt: number }
        const [want, still] = ['wall:first-want', 'wall:first-still'].map((name) => (performance.getEntriesByName(name, 'mark')[0]?.startTime ?? NaN) - w.__wallAt)
        return { nav: w.__tilesPaintedAt, fromWall: w.__tilesPaintedAt - w.__wallAt, want: want!, still: still! }
      }))
      await page.close()
    }
    for (const c of contexts.splice(0)) await c.close()
    await new Promise((r) => setTimeout(r, 3_000))

    ctx.log(`wall: baseline, ${TABS} browser contexts (a core and a socket per tab)`)
    const baseTabs: Page[] = []
    for (let i = 0; i < TABS; i++) {
      const page = await (await newContext(ctx.browser)).newPage()
      await logIn(page, app.appUrl)
      await showWall(page)
      baseTabs.push(page)
    }
    const baseline = await measure(ctx, relay, baseTabs, windowMs)

    const nav = summarize(opened.map((o) => o.nav))
    const productBehind = summarize(product.behind)
    const fromWall = summarize(opened.map((o) => o.fromWall))
    const ratio = baseline.bytesPerS > 0 ? product.bytesPerS / baseline.bytesPerS : null
    const kb = (b: number) => round(b / 1024, 1)
    const over50 = (w: Window) => w.longTasks.filter((d) => d > 50).length
    return {
      product: 'real',
      tables: [{
        title: `The 60-phone wall in ${TABS} tabs, ${windowMs / 1000} s`,
        columns: ['path', 'stream sockets', 'server stream kB/s', 'long tasks > 50 ms (all tabs)', 'longest task ms'],
        rows: [
          ['product: one core, tabs of one browser', product.sockets, kb(product.bytesPerS), over50(product), round(Math.max(0, ...product.longTasks), 1)],
          ['baseline: a core and a socket per tab', baseline.sockets, kb(baseline.bytesPerS), over50(baseline), round(Math.max(0, ...baseline.longTasks), 1)],
        ],
      }, {
        title: 'A newly opened tab painting every tile on its screen (wall already shown in other tabs)',
        columns: ['from', 'n', 'p50 ms', 'p95 ms', 'max ms'],
        rows: [
          ['navigation start', nav.n, round(nav.p50, 1), round(nav.p95, 1), round(nav.max, 1)],
          ['the wall mounted (the core\'s cache to pixels)', fromWall.n, round(fromWall.p50, 1), round(fromWall.p95, 1), round(fromWall.max, 1)],
          ...([['the wall mounted -> its tiles asked for', 'want'], ['the wall mounted -> first still in the tab', 'still']] as const).map(([label, key]) => {
            const s = summarize(opened.map((o) => o[key]))
            return [label, s.n, round(s.p50, 1), round(s.p95, 1), round(s.max, 1)]
          }),
        ],
      }, {
        title: `Tile age during the ${windowMs / 1000} s window, every phone's picture changing each second (ms)`,
        columns: ['path', 'what', 'n', 'p50 ms', 'p95 ms', 'max ms'],
        rows: ([['product', product], ['baseline', baseline]] as const).flatMap(([path, w]) => {
          const age = summarize(w.ages)
          const behind = summarize(w.behind)
          const delay = summarize(w.delays)
          return [
            [path, `tile age: a phone's change -> its tile shows a still drawn after it, each tile on screen${w.neverCaughtUp > 0 ? ` (${w.neverCaughtUp} never did)` : ''}`, behind.n, round(behind.p50, 1), round(behind.p95, 1), round(behind.max, 1)],
            [path, 'the picture\'s own age: every picture on screen every 100 ms, now - when the server drew it', age.n, round(age.p50, 1), round(age.p95, 1), round(age.max, 1)],
            [path, 'a new still: drawn -> in the tab\'s DOM', delay.n, round(delay.p50, 1), round(delay.p95, 1), round(delay.max, 1)],
          ]
        }),
      }],
      targets: [
        check('wall: stream sockets for 3 tabs', '1', product.sockets, 'sockets', (v) => v === 1),
        check('wall: server stream bytes, product / per-tab baseline', `<= ${round(1 / TABS + 0.1, 2)} (1x of one tab vs ${TABS}x)`, ratio === null ? null : round(ratio, 2), 'x', (v) => v <= 1 / TABS + 0.1),
        check('wall: a new tab paints its visible tiles, from the wall mounting, p95', '<= 300', round(fromWall.p95, 1), 'ms', (v) => v <= 300),
        check(`wall: main-thread long tasks > 50 ms over ${windowMs / 1000} s, 3 tabs`, '0', over50(product), 'tasks', (v) => v === 0),
        check('wall: tile age p95 (a phone\'s change -> its tile shows it, 3 tabs, every phone changing each second)', '<= 1000', round(productBehind.p95, 1), 'ms', (v) => v <= 1000),
      ],
      notes: [
        'Bytes are what the reference server wrote down phone-stream sockets (a TCP relay in front of it counts them), WebSocket framing included. During the window every phone of the account starts again each second with one app installed, named differently each time, so every subscribed phone\'s picture changes each second: the wall\'s worst case (a 240 px JPEG still per phone a second). Tiles are subscribed for what is on screen: a phone-sized tab shows about a dozen tiles.',
        'Tile age: a still carries the time the server drew it (a JPEG comment, withStillTime in worker/protocol/stream.ts; the tile shows it as data-drawn-at; Date.now() on the server and in the tabs, one machine). The target is on how long a tile shows a picture its phone has left behind: from each change of the window (the server\'s time once every phone had changed) to the tab\'s DOM having, in that tile, a still drawn after it, for every tile on screen at the window\'s start. The picture\'s own age (now minus its drawing, sampled) is not a lateness: the server draws a still only when the picture changes, so it grows with the time since the phone last changed (up to the 1 s period here, plus the lateness) and is smaller when a change is drawn late. Each change is two (the phone starts again, then an app is installed): the second comes while the first one\'s still is being drawn, and thumbTick skips a change while it draws (server/devices/sim/stream-server.ts), so the tile catches up at the phone\'s next thumbnail tick, up to 1 s later; the stills themselves reach the tabs in the last row\'s time.',
      ],
      // the age samples as summaries (thousands of them)
      data: ([['product', product], ['baseline', baseline]] as const).reduce((d, [k, { ages, delays, behind, ...w }]) =>
        ({ ...d, [k]: { ...w, ages: summarize(ages), delays: summarize(delays), behind: summarize(behind) } }), { opened } as Record<string, unknown>),
    }
  } finally {
    for (const c of contexts) await c.close().catch(() => undefined)
    await app.close()
    await relay.close()
  }
}
