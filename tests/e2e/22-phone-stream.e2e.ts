// The phone, for real, end to end: the viewer shows the reference phone's H.264 picture decoded in the tab; a tap
// changes the pixels; Chinese text, the hardware keyboard and the clipboard reach the phone and come back; rotation;
// a second tab joins the same stream; a killed worker and a dropped socket bring the picture back by themselves;
// files go to the phone (an APK installs an icon) and come back as downloads. The phone's state is read through the
// operator endpoint, the picture through the decoded frames' input marker.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { opsDropStreams, opsPhone, type PhoneReport } from '../../server/ops.ts'
import { test, expect, noSharedWorker } from './fixtures.ts'
import { isCoreTarget, killCores, login, newWorld, opsTarget, screenshot, viewerUrl, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })
const DEMO = () => world.accounts.demo
const card = () => world.cards['云手机-01']!
const phone = (): Promise<NonNullable<PhoneReport['state']>> =>
  opsPhone(opsTarget(), card()).then((r) => {
    if (r.state === null) throw new Error('the phone has no screen on this instance')
    return r.state
  })

/** Logical portrait screen of the reference phone (worker/protocol/stream.ts PHONE_SCREEN) and its app icons. */
const SCREEN = { width: 720, height: 1280 }
const ICON = { input: { x: 450, y: 156 }, clipboard: { x: 630, y: 156 }, files: { x: 270, y: 346 } }
const COPY_BUTTON = { x: 360, y: 452 }
const COPY_TEXT = '云手机剪贴板：你好，世界'

/** The viewer's decoder reads the phone's input marker from every frame (set before the page's document loads). */
const probe = (page: Page) => page.addInitScript(() => { (globalThis as { __PHONE_PROBE__?: boolean }).__PHONE_PROBE__ = true })

const openViewer = async (page: Page) => {
  await page.goto(viewerUrl(card()))
  await expect(page.getByTestId('viewer')).toHaveAttribute('data-phase', 'live', { timeout: 30_000 })
  const canvas = page.getByTestId('phone-canvas')
  await expect(canvas).toHaveAttribute('data-marker', /\d+/)
  return canvas
}

/** Taps the phone at a point of its logical portrait screen. */
const tapPhone = async (page: Page, at: { x: number; y: number }) => {
  const box = await page.getByTestId('phone-canvas').boundingBox()
  if (box === null) throw new Error('canvas not laid out')
  await page.touchscreen.tap(box.x + (box.width * at.x) / SCREEN.width, box.y + (box.height * at.y) / SCREEN.height)
}

const marker = async (page: Page) => Number(await page.getByTestId('phone-canvas').getAttribute('data-marker'))

test('the picture is the phone: a tap changes the pixels, text and keys reach it, the clipboard goes both ways, it rotates', async ({ page }) => {
  await probe(page)
  await login(page, DEMO())
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  const canvas = await openViewer(page)
  await screenshot(page, 'viewer-phone-home')
  const before = await canvas.screenshot()

  const seq = await marker(page)
  await tapPhone(page, ICON.input)
  await expect.poll(async () => (await phone()).screen).toBe('input')
  // the decoded picture shows the input (the phone paints its input count) and is not the old picture
  await expect.poll(() => marker(page)).not.toBe(seq)
  await expect.poll(async () => (await canvas.screenshot()).equals(before)).toBe(false)

  await page.getByTestId('viewer-text-input').fill('你好，云手机')
  await page.getByTestId('viewer-text-send').click()
  await expect.poll(async () => (await phone()).text).toBe('你好，云手机')
  await canvas.focus()
  await page.keyboard.type('abc')
  await page.keyboard.press('Backspace')
  await expect.poll(async () => (await phone()).text).toBe('你好，云手机ab')
  await screenshot(page, 'viewer-phone-typed')

  await page.getByTestId('viewer-clipboard').click()
  await page.locator('[data-testid="viewer-clipboard-input"] textarea').fill('来自网页的文字')
  await page.getByTestId('viewer-clipboard-send').click()
  await expect.poll(async () => (await phone()).clipboard).toBe('来自网页的文字')
  await page.mouse.click(195, 50)
  await expect(page.getByTestId('viewer-clipboard-sheet')).toBeHidden()

  await page.getByTestId('viewer-key-home').click()
  await expect.poll(async () => (await phone()).screen).toBe('home')
  await tapPhone(page, ICON.clipboard)
  await expect.poll(async () => (await phone()).screen).toBe('clipboard')
  await tapPhone(page, COPY_BUTTON)
  await expect(page.getByText('云手机复制了文字')).toBeVisible()
  await page.getByTestId('viewer-clipboard').click()
  await expect(page.getByTestId('viewer-phone-clipboard')).toHaveText(COPY_TEXT)
  await screenshot(page, 'viewer-clipboard')
  await page.mouse.click(195, 50)

  await page.getByTestId('viewer-stats').click()
  await expect(page.getByTestId('viewer-stats')).toContainText(/帧\/秒.*kbps.*解码/)
  await page.getByTestId('viewer-rotate').click()
  await expect(canvas).toHaveAttribute('data-orientation', 'landscape')
  expect((await phone()).orientation).toBe('landscape')
  await screenshot(page, 'viewer-landscape')
  await page.getByTestId('viewer-rotate').click()
  await expect(canvas).toHaveAttribute('data-orientation', 'portrait')

  await page.getByTestId('viewer-quality').click()
  await page.getByTestId('viewer-quality-smooth').click()
  await expect(page.getByTestId('viewer-stats')).toContainText('360×640')

  const download = page.waitForEvent('download')
  await page.getByTestId('viewer-screenshot').click()
  const png = readFileSync(await (await download).path())
  expect(png.subarray(1, 4).toString()).toBe('PNG')
})

test('a second tab on the same phone joins the one stream: both show the same input, the server has one channel', async ({ page, context }) => {
  await probe(page)
  await login(page, DEMO())
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await openViewer(page)
  const second = await context.newPage()
  await probe(second)
  await openViewer(second)
  await page.bringToFront()
  const report = await opsPhone(opsTarget(), card())
  // one core, one channel; without SharedWorker each tab's own core holds its own
  expect(report.viewers).toBe(noSharedWorker ? 2 : 1)
  expect(report.encoding).toBe(true)
  const seq = await marker(page)
  await tapPhone(page, { x: 360, y: 900 })
  await expect.poll(() => marker(page)).not.toBe(seq)
  const shown = await marker(page)
  await second.bringToFront()
  // the tab shown again paints from the core's cache and then follows the live stream
  await expect.poll(() => marker(second)).toBe(shown)
  await screenshot(second, 'viewer-second-tab')
})

test('a killed worker and a dropped socket bring the picture back by themselves', async ({ page, browser }) => {
  await probe(page)
  await login(page, DEMO())
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await openViewer(page)
  const viewer = page.getByTestId('viewer')
  // every phase the viewer goes through, seen by the page itself (a recovery can be faster than a poll)
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="viewer"]')!
    const seen: string[] = []
    ;(globalThis as { __phases?: string[] }).__phases = seen
    new MutationObserver(() => seen.push(el.getAttribute('data-phase') ?? '')).observe(el, { attributes: true, attributeFilter: ['data-phase'] })
  })
  const phases = () => page.evaluate(() => (globalThis as { __phases?: string[] }).__phases ?? [])

  expect(await killCores(browser)).toBeGreaterThan(0)
  const cdp = await browser.newBrowserCDPSession()
  // not a frozen frame presented as live: the viewer says it is reconnecting, then the picture comes back
  await expect.poll(phases).toContain('waiting')
  await expect(viewer).toHaveAttribute('data-phase', 'live', { timeout: 10_000 })
  expect((await cdp.send('Target.getTargets')).targetInfos.filter(isCoreTarget).length).toBeGreaterThan(0)
  let seq = await marker(page)
  await tapPhone(page, { x: 360, y: 900 })
  await expect.poll(() => marker(page)).not.toBe(seq)

  const waitingBefore = (await phases()).filter((p) => p === 'waiting').length
  const droppedAt = Date.now()
  expect((await opsDropStreams(opsTarget())).dropped).toBeGreaterThan(0)
  await expect.poll(async () => (await phases()).filter((p) => p === 'waiting').length).toBeGreaterThan(waitingBefore)
  await expect(viewer).toHaveAttribute('data-phase', 'live')
  seq = await marker(page)
  await tapPhone(page, { x: 360, y: 900 })
  await expect.poll(() => marker(page)).not.toBe(seq)
  expect(Date.now() - droppedAt).toBeLessThan(5_000)
})

test('files go to the phone (an APK installs its icon) and come back as downloads', async ({ page }) => {
  await probe(page)
  await login(page, DEMO())
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await openViewer(page)
  await page.getByTestId('viewer-files').click()
  await expect(page.getByTestId('viewer-files-sheet')).toBeVisible()
  await page.getByTestId('viewer-files-input').setInputFiles([
    { name: '笔记.txt', mimeType: 'text/plain', buffer: Buffer.from('云手机上的笔记') },
    { name: '小游戏.apk', mimeType: 'application/vnd.android.package-archive', buffer: Buffer.alloc(4096, 1) },
  ])
  const items = page.getByTestId('viewer-files-item')
  await expect(items).toHaveCount(2)
  await expect(items.nth(0)).toHaveAttribute('data-state', 'done')
  await expect(items.nth(1)).toHaveAttribute('data-state', 'done')
  await screenshot(page, 'viewer-files-uploaded')
  await expect.poll(async () => (await phone()).apps.some((a) => a.includes('小游戏'))).toBe(true)
  await expect.poll(async () => (await phone()).files).toContain('笔记.txt')

  await page.getByTestId('viewer-files-tab-phone').click()
  const mine = page.getByTestId('viewer-phone-file').filter({ hasText: '笔记.txt' })
  await expect(mine).toHaveCount(1)
  const download = page.waitForEvent('download')
  await mine.getByTestId('viewer-phone-file-download').click()
  const saved = await download
  expect(saved.suggestedFilename()).toBe('笔记.txt')
  expect(readFileSync(await saved.path()).toString()).toBe('云手机上的笔记')
  await screenshot(page, 'viewer-files-phone')
})
