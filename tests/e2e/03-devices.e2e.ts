// Issue 4, end to end: the viewer through 5200 retries to the phone's live picture that a tap changes; bulk reboot;
// authorise, use and cancel across two users; transfer between two users. Each flow puts the data back as it was.
import { type Page } from '@playwright/test'
import { test, expect, skipPopUpAds } from './fixtures.ts'
import { appUrl, confirmDialog, login, newWorld, screenshot, viewerUrl, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })
const DEMO = () => world.accounts.demo
const OTHER = () => world.accounts.partner
/** userCardId of a demo-profile device of this file's world, by disk name. */
const id = (diskName: string): number => world.cards[diskName]!

const card = (page: Page, testId: string, userCardId: number) =>
  page.locator(`[data-testid="${testId}"][data-user-card-id="${userCardId}"]`)

/** Taps the phone's picture at a fraction of its size. */
async function tapCanvas(page: Page, fx: number, fy: number): Promise<void> {
  const canvas = page.getByTestId('phone-canvas')
  const box = await canvas.boundingBox()
  if (box === null) throw new Error('canvas not laid out')
  await page.touchscreen.tap(box.x + box.width * fx, box.y + box.height * fy)
}

test('the viewer shows a live screen that a tap changes, and reconnects through 5200 retries after a reboot', async ({ page }) => {
  await login(page, DEMO())
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.goto(viewerUrl(id('云手机-01')))
  const viewer = page.getByTestId('viewer')
  await expect(viewer).toHaveAttribute('data-phase', 'live')
  const canvas = page.getByTestId('phone-canvas')
  await expect(canvas).toHaveAttribute('data-frames', /\d+/)
  const before = await canvas.screenshot()
  // the 计数器 app's icon (first on the home screen), then a tap inside it: the decoded picture changes
  await tapCanvas(page, 90 / 720, 156 / 1280)
  await tapCanvas(page, 0.5, 0.5)
  await expect.poll(async () => (await canvas.screenshot()).equals(before)).toBe(false)
  await expect(page.getByTestId('viewer-stats')).toContainText(/ms/)
  await screenshot(page, 'viewer-live')

  await page.getByTestId('viewer-more').click()
  await page.getByTestId('viewer-action-reboot').click()
  await confirmDialog(page)
  await expect(page.getByTestId('viewer-progress').or(page.getByTestId('viewer-restarting'))).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await screenshot(page, 'viewer-connecting')
  await expect(viewer).toHaveAttribute('data-phase', 'live', { timeout: 30_000 })
})

test('bulk reboot of three devices reports a result per device', async ({ page }) => {
  await login(page, DEMO())
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.goto(appUrl('/package/bulkOperation/bulkOperation'))
  for (const name of ['云手机-01', '云手机-02', '已授权云手机']) await card(page, 'bulk-picker-item', id(name)).click()
  await page.getByTestId('bulk-reboot').click()
  const results = page.getByTestId('bulk-result-item')
  await expect(results).toHaveCount(3)
  for (let i = 0; i < 3; i++) await expect(results.nth(i)).toHaveAttribute('data-ok', 'true')
  await screenshot(page, 'bulk-results')
})

test('A authorises a device to B, B uses it, A cancels and B\'s viewer goes home with the notice', async ({ browser }) => {
  const a = await browser.newContext()
  await skipPopUpAds(a)
  const b = await browser.newContext()
  try {
    const pa = await a.newPage()
    await login(pa, DEMO())
    await expect(pa.getByTestId('device-item').first()).toBeVisible()
    await pa.goto(appUrl('/package/authorizedDevices/authorizedDevices'))
    await pa.getByTestId('auth-add').click()
    await card(pa, 'auth-picker-item', id('云手机-01')).click()
    await pa.locator('[data-testid="auth-phone"] input').fill(OTHER().phone)
    await pa.getByTestId('auth-submit').click()
    await expect(card(pa, 'auth-record', id('云手机-01')).first()).toHaveAttribute('data-status', '0')

    const pb = await b.newPage()
    await login(pb, OTHER())
    await expect(card(pb, 'device-item', id('云手机-01'))).toBeVisible()
    await pb.goto(viewerUrl(id('云手机-01')))
    await expect(pb.getByTestId('viewer')).toHaveAttribute('data-phase', 'live')

    await card(pa, 'auth-record', id('云手机-01')).first().click()
    await pa.getByTestId('auth-cancel').click()
    await confirmDialog(pa)
    await expect(pa.getByTestId('auth-details-state')).toContainText('已取消')

    const dialog = pb.getByRole('dialog')
    await expect(dialog).toContainText('授权取消通知')
    await expect(dialog).toContainText('云手机「云手机-01」的授权已被取消，已为您退出该云手机')
    await expect(pb).toHaveURL(/#\/(pages\/index\/index)?$/)
    await screenshot(pb, 'auth-cancelled')
    await confirmDialog(pb)
    await expect(card(pb, 'device-item', id('云手机-01'))).toHaveCount(0)
  } finally {
    await a.close()
    await b.close()
  }
})

test('a transfer from A to B changes both lists, and B can transfer it back', async ({ browser }) => {
  const a = await browser.newContext()
  await skipPopUpAds(a)
  const b = await browser.newContext()
  try {
    const pa = await a.newPage()
    await login(pa, DEMO())
    await expect(card(pa, 'device-item', id('云手机-02'))).toBeVisible()
    const pb = await b.newPage()
    await login(pb, OTHER())
    await expect(pb.getByTestId('device-item').first()).toBeVisible()
    await expect(card(pb, 'device-item', id('云手机-02'))).toHaveCount(0)

    const transfer = async (page: Page, to: string) => {
      await page.goto(appUrl('/package/deviceTransfer/deviceTransfer'))
      await card(page, 'transfer-picker-item', id('云手机-02')).click()
      await page.getByTestId('transfer-next').click()
      await page.locator('[data-testid="transfer-phone"] input').fill(to)
      await page.getByTestId('transfer-submit').click()
      await confirmDialog(page)
      await expect(page.getByTestId('transfer-done')).toBeVisible()
    }
    await transfer(pa, OTHER().phone)
    await screenshot(pa, 'transfer-done')
    await pa.goto(appUrl('/'))
    await expect(card(pa, 'device-item', id('云手机-02'))).toHaveCount(0)
    await expect(card(pb, 'device-item', id('云手机-02'))).toBeVisible() // B's home updated by the push, no reload

    await transfer(pb, DEMO().phone)
    await pb.goto(appUrl('/'))
    await expect(card(pb, 'device-item', id('云手机-02'))).toHaveCount(0)
    await expect(card(pa, 'device-item', id('云手机-02'))).toBeVisible()
    await pa.goto(appUrl('/package/deviceTransfer/deviceTransfer'))
    await pa.getByTestId('transfer-tab-records').click()
    await expect(pa.getByTestId('transfer-record')).toHaveCount(2)
  } finally {
    await a.close()
    await b.close()
  }
})
