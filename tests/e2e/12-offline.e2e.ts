// The installable offline shell (issue 12): the service worker precaches the app, so an offline reload paints the
// last-known device list with the offline notice and the network actions disabled; back online the list refreshes by
// itself; a new service worker waits behind the "新版本可用，点击刷新" prompt and takes over only when asked.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { startTestProxy } from '../support/test-proxy.ts'
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, screenshot, type FixtureWorld } from './helpers.ts'

const DEVICE_LIST = catalogue.getDeviceList.path

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

/** Waits until a service worker is active for the app (its install precached every file). */
async function shellInstalled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
}

const fetchedAt = (page: Page) => page.getByTestId('device-list').getAttribute('data-fetched-at')

test('the manifest names the app, its icons and theme colour under the base path', async ({ page, request }) => {
  await page.goto(appUrl('/pages/login/login'))
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBe('/cloud/phone/web/manifest.webmanifest')
  const manifest = await (await request.get(new URL(href!, page.url()).toString())).json()
  expect(manifest).toMatchObject({ name: '云手机', start_url: '/cloud/phone/web/', scope: '/cloud/phone/web/', display: 'standalone', theme_color: '#3c9cff' })
  const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes)
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']))
  for (const icon of manifest.icons as Array<{ src: string; type: string }>) {
    const res = await request.get(new URL(icon.src, new URL(href!, page.url())).toString())
    expect(res.ok()).toBe(true)
    expect(res.headers()['content-type']).toContain(icon.type)
  }
})

test('index.html preloads the chunks of the screen it opens: the home\'s for the home, the login screen\'s for the login screen', async ({ page, context }) => {
  // modulepreload links present while the document is still parsing: those of index.html itself, before the entry runs
  await context.addInitScript(() => {
    const w = window as unknown as { __earlyPreloads: string[] }
    w.__earlyPreloads = []
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        if (n instanceof HTMLLinkElement && n.rel === 'modulepreload' && document.readyState === 'loading') w.__earlyPreloads.push(n.href)
      }
    }).observe(document, { subtree: true, childList: true })
  })
  const early = () => page.evaluate(() => (window as unknown as { __earlyPreloads: string[] }).__earlyPreloads)
  await page.goto(appUrl('/pages/login/login'))
  await expect(page.getByTestId('login-page')).toBeVisible()
  const atLogin = new Set(await early())
  const screenChunk = (hrefs: Iterable<string>, name: string) => [...hrefs].some((href) => new URL(href).pathname.includes(`/assets/${name}.lazy-`))
  expect(screenChunk(atLogin, 'login')).toBe(true)
  expect(screenChunk(atLogin, 'index')).toBe(false)
  await page.goto('about:blank')
  await page.goto(appUrl('/'))
  await expect(page.getByTestId('home-page')).toBeVisible()
  const atHome = await early()
  expect(screenChunk(atHome, 'index')).toBe(true)
  expect(screenChunk(atHome, 'login')).toBe(false)
  expect(atHome.filter((href) => !atLogin.has(href)).length).toBeGreaterThan(0)
})

test('index.html carries the entry\'s CSS: no stylesheet request holds the first paint, and no screen applies it again', async ({ page }) => {
  await login(page, world.accounts.member)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  const sheets = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => ({ href: new URL(l.href).pathname, disabled: l.disabled })))
  const inlined = sheets.filter((s) => s.disabled).map((s) => s.href)
  expect(inlined.length).toBeGreaterThan(0)
  // the home's chunks need the entry's CSS too: Vite's loader finds it named by index.html and adds no second copy
  expect(sheets.filter((s) => inlined.includes(s.href))).toHaveLength(inlined.length)
  const html = await (await page.request.get(page.url().split('#')[0]!)).text()
  const head = html.slice(0, html.indexOf('</head>'))
  expect(head).toContain('<style>')
  expect([...head.matchAll(/<link rel="stylesheet"[^>]*>/g)].every(([tag]) => / disabled>$/.test(tag))).toBe(true)
})

test('offline, a reload paints the stored device list (no device-list answer before the paint) with the offline notice; back online it refreshes by itself', async ({ page, context }) => {
  // through the test proxy, which sees every device-list request the core makes: context.setOffline does not reach
  // the core's SharedWorker (Playwright emulates the network per page and dedicated worker), nor does context.route
  const proxy = await startTestProxy(process.env.E2E_BASE_URL!)
  try {
    await login(page, world.accounts.member, proxy.appUrl)
    await expect(page.getByTestId('device-item').first()).toBeVisible()
    await shellInstalled(page)
    const names = await page.getByTestId('device-name').allTextContents()
    const before = Number(await fetchedAt(page))
    // when the list first painted after the reload, from the page's first script on
    await context.addInitScript(() => {
      const w = window as unknown as { __listPaintedAt?: number }
      new MutationObserver((_records, observer) => {
        if (w.__listPaintedAt === undefined && document.querySelector('[data-testid="device-item"]')) {
          w.__listPaintedAt = Date.now()
          observer.disconnect()
        }
      }).observe(document, { subtree: true, childList: true })
    })

    // offline for the core too: its device-list requests get no answer, as on a dead network
    proxy.rewrite(DEVICE_LIST, { network: true })
    const requestsBefore = proxy.exchanges(DEVICE_LIST).length
    await context.setOffline(true)
    await page.reload()
    await expect(page.getByTestId('offline-notice')).toBeVisible()
    await expect(page.getByTestId('device-name')).toHaveText(names)
    const paintedAt = await page.evaluate(() => (window as unknown as { __listPaintedAt?: number }).__listPaintedAt)
    expect(paintedAt).toBeGreaterThan(0)
    // its chunks came straight from the precache, without the service worker's fetch handler (the static route of
    // public/sw-static-routes.js)
    const chunkSources = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((e) => /\/assets\/.*\.js$/.test(e.name))
      .map((e) => (e as PerformanceResourceTiming & { workerFinalSourceType?: string }).workerFinalSourceType))
    expect(chunkSources.length).toBeGreaterThan(0)
    expect(new Set(chunkSources)).toEqual(new Set(['cache']))
    // the list came from the stored snapshot: every device-list request the core made since the reload died on the
    // network, so none can have supplied it. (Whether the core's launch refresh leaves before React commits the stored
    // list is a race of a few ms, not a sign of where the list came from.)
    const requested = proxy.exchanges(DEVICE_LIST).slice(requestsBefore)
    expect(requested.filter((e) => e.receivedAt <= paintedAt! && e.body !== ''), 'device-list answers before the paint').toEqual([])
    // and it is the list as stored, fetched before the reload
    expect(Number(await fetchedAt(page))).toBe(before)
    proxy.clear()
    await expect(page.getByTestId('offline-notice')).toContainText('网络已断开')
    const reboot = page.getByTestId('device-action-reboot').first()
    await expect(reboot).toBeDisabled()
    await expect(reboot).toHaveAttribute('aria-describedby', 'offline-notice')
    await expect(page.getByTestId('device-action-more').first()).toBeDisabled()
    await screenshot(page, 'offline-home')

    await context.setOffline(false)
    await expect(page.getByTestId('offline-notice')).toHaveCount(0)
    await expect.poll(async () => Number(await fetchedAt(page))).toBeGreaterThan(before)
    await expect(page.getByTestId('device-action-more').first()).toBeEnabled()
  } finally {
    await proxy.close()
  }
})

test('a new version waits behind the refresh prompt and takes over when the user asks', async ({ page }) => {
  await page.goto(appUrl('/pages/login/login'))
  await shellInstalled(page)
  // a page opened before the first install is not controlled; the next load is, as on any later visit
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  const swFile = join(process.cwd(), 'dist', 'sw.js')
  const original = readFileSync(swFile, 'utf8')
  try {
    writeFileSync(swFile, `${original}\n// e2e: a new version ${Date.now()}\n`)
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      await registration?.update()
    })
    const prompt = page.getByTestId('update-prompt')
    await expect(prompt).toContainText('新版本可用，点击刷新')
    // the old version keeps serving this page until the user takes the new one
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true)
    await screenshot(page, 'update-prompt')
    await Promise.all([page.waitForEvent('load'), page.getByTestId('update-prompt-refresh').click()])
    await expect(page.getByTestId('login-page')).toBeVisible()
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull()
    await expect(page.getByTestId('update-prompt')).toHaveCount(0)
  } finally {
    writeFileSync(swFile, original)
  }
})
