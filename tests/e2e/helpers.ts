// Shared steps for end-to-end flows: a fresh set of accounts per file, open the app, log in, run the operator CLI,
// save phone screenshots, read a QR code off the screen.
import { execFile } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { promisify } from 'node:util'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test'
import jsQR from 'jsqr'
import { opsConnections, opsFixture, opsTargetFromEnv } from '../../server/ops.ts'
import type { FixtureAccount, FixtureWorld } from '../../server/ops/fixtures.ts'
import { childEnv } from '../support/child-env.ts'
import { noSharedWorker } from './fixtures.ts'

export type { FixtureAccount, FixtureWorld }

export interface Credentials {
  readonly phone: string
  readonly password: string
}

/** The operator endpoint of the e2e server (started once in global setup). */
export const opsTarget = () => opsTargetFromEnv({ OPS_URL: process.env.E2E_BASE_URL, DATA_DIR: process.env.E2E_DATA_DIR })

/**
 * This file's own accounts: the demo profiles (demo with five devices, partner, unbound userType 2, fleet with 60,
 * member) under fresh phone numbers, with their devices, coupons, star coins and unused activation codes.
 * Call once per file in `test.beforeAll`; no other file sees them, so files pass alone and in any order.
 */
export const newWorld = (): Promise<FixtureWorld> => opsFixture(opsTarget())

export const appUrl = (hash = '/', base = process.env.E2E_APP_URL): string => `${base}#${hash}`

/** Logs in from the login page; `app` builds the app URL (another origin, e.g. a test proxy, gets its own core). */
export async function login(page: Page, user: Credentials, app: (hash: string) => string = appUrl): Promise<void> {
  await page.goto(app('/pages/login/login'))
  await page.getByTestId('login-phone').fill(user.phone)
  await page.getByTestId('login-password').fill(user.password)
  await page.getByTestId('login-submit').click()
}

const run = promisify(execFile)
/** Runs `npm run ops -- <args>` against the e2e server, as an operator would. */
export async function ops(...args: string[]): Promise<string> {
  const { stdout } = await run('npx', ['tsx', 'server/ops.ts', ...args], {
    // the e2e server's address and data folder, nothing of the shell's (an OPS_TOKEN or DATABASE_URL of another server)
    env: childEnv({ OPS_URL: process.env.E2E_BASE_URL, DATA_DIR: process.env.E2E_DATA_DIR }),
  })
  return stdout
}

/** Live push connections of a user, from the operator endpoint behind `npm run ops -- connections`. */
export async function connectionsOf(phone: string): Promise<number> {
  const report = await opsConnections(opsTarget())
  return report.users.filter((u) => u.phone === phone).reduce((n, u) => n + u.live, 0)
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screens', { recursive: true })
  await page.screenshot({ path: `test-results/screens/${name}.png` })
}

export async function expectDeviceCount(page: Page, n: number): Promise<void> {
  await expect(page.getByTestId('device-item')).toHaveCount(n)
}

/** Opens `n` tabs of one browser context (one shared core, or a core per tab without SharedWorker), all logged in as `user`, all on home. */
export async function loggedInTabs(
  context: BrowserContext, n: number, user: Credentials, app: (hash: string) => string = appUrl,
): Promise<Page[]> {
  const first = await context.newPage()
  await login(first, user, app)
  await expect(first.getByTestId('device-item').first()).toBeVisible()
  const pages = [first]
  for (let i = 1; i < n; i++) {
    const page = await context.newPage()
    await page.goto(app('/'))
    await expect(page.getByTestId('device-item').first()).toBeVisible()
    pages.push(page)
  }
  // one socket for the browser's one core; without SharedWorker, one per tab's own core
  await expect.poll(() => connectionsOf(user.phone), { timeout: 15_000 }).toBe(noSharedWorker ? n : 1)
  return pages
}

export const viewerUrl = (userCardId: number): string => appUrl(`/package/cloudPhoneView/cloudPhoneView?userCardId=${userCardId}`)

/** Test-only core configuration (shortened timers); must be installed before the app boots. */
export async function withCoreTestConfig(context: BrowserContext, config: Record<string, unknown>): Promise<void> {
  await context.addInitScript((c) => { (globalThis as { __CORE_TEST_CONFIG__?: unknown }).__CORE_TEST_CONFIG__ = c }, config)
}

/** Presses the 确定 button of the dialog on screen (confirmations and notices). */
export async function confirmDialog(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: '确定', exact: true }).click()
}

/** Sums every layout shift not caused by input, from the start of each document of the context (read with layoutShifts). */
export const watchLayoutShifts = async (context: BrowserContext): Promise<void> => {
  await context.addInitScript(() => {
    const w = window as unknown as { __shifts: number }
    w.__shifts = 0
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.__shifts += e.value
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

export const layoutShifts = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)

/**
 * What a phone camera pointed at the screen reads: a screenshot of the QR code's element, decoded with jsQR (not the
 * text the page may show beside it).
 */
export async function scanQrCode(code: Locator): Promise<string> {
  await expect(code).toBeVisible()
  const image = await loadImage(await code.screenshot())
  const canvas = createCanvas(image.width, image.height)
  const g = canvas.getContext('2d')
  g.drawImage(image, 0, 0)
  const { data, width, height } = g.getImageData(0, 0, image.width, image.height)
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width, height)
  if (found === null) throw new Error('no QR code could be read from the screenshot')
  return found.data
}

/**
 * A DevTools target that is the app's core: its SharedWorker, or with E2E_NO_SHARED_WORKER a tab's dedicated core
 * worker (the core's script is the `main-…` asset; the phone's decoder is another worker).
 */
export const isCoreTarget = (t: { readonly type: string; readonly url: string }): boolean =>
  noSharedWorker ? t.type === 'worker' && /\/assets\/main-[^/]*\.js/.test(t.url) : t.type === 'shared_worker'

/**
 * Kills the app's core the way the OS does (issue 21): the DevTools protocol closes the SharedWorker's target, so no
 * code of it runs. Without SharedWorker (E2E_NO_SHARED_WORKER) the cores are the tabs' dedicated workers, which the
 * protocol cannot close ("doesn't support closing"): each is ended from inside (`close()`), which destroys its context
 * and releases its lifetime lock as a kill does. Only targets of `origin` when given; resolves with how many.
 */
export async function killCores(browser: Browser, origin?: string): Promise<number> {
  const ours = (url: string) => origin === undefined || url.startsWith(origin)
  if (noSharedWorker) {
    const workers = browser.contexts().flatMap((c) => c.pages()).flatMap((p) => p.workers())
      .filter((w) => isCoreTarget({ type: 'worker', url: w.url() }) && ours(w.url()))
    await Promise.all(workers.map((w) => w.evaluate(() => (globalThis as unknown as { close(): void }).close()).catch(() => undefined)))
    return workers.length
  }
  const cdp = await browser.newBrowserCDPSession()
  try {
    const { targetInfos } = await cdp.send('Target.getTargets')
    const cores = targetInfos.filter((t) => isCoreTarget(t) && ours(t.url))
    for (const t of cores) await cdp.send('Target.closeTarget', { targetId: t.targetId })
    return cores.length
  } finally {
    await cdp.detach()
  }
}
