// Accessibility (issue 12): axe-core on every screen, logged out and logged in, and on the dialogs a screen opens;
// no serious or critical violation may remain. Each screen is scanned once its content has settled.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { PATHS, ROUTE_PATHS } from '../../src/router/paths.ts'
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, type FixtureWorld } from './helpers.ts'

interface Finding { readonly rule: string; readonly impact: string; readonly targets: string[] }

/**
 * Waits until no skeleton or loading screen is left and entering transitions have finished: CSS ones and the
 * overlays' script-driven fades (a half-faded dialog would read as low contrast).
 */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main, [data-testid="router-not-ready"], [data-testid="screen-error"]').first()).toBeVisible()
  await expect(page.locator('.adm-skeleton, .screen-spinner')).toHaveCount(0)
  await page.waitForFunction(() => {
    const opacity = (el: Element | null): number => (el ? Number(getComputedStyle(el).opacity) * opacity(el.parentElement) : 1)
    return (
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity) &&
      [...document.querySelectorAll('.adm-center-popup-wrap > div, .adm-popup-body')].every(
        (el) => el.getClientRects().length === 0 || opacity(el) === 1,
      )
    )
  })
}

async function seriousFindings(page: Page): Promise<Finding[]> {
  // toasts are transient messages in antd-mobile's fixed white-on-dark style, scanned mid-fade they read as low contrast
  const { violations } = await new AxeBuilder({ page }).exclude('.adm-toast-mask').analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact!, targets: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''} ${n.html.slice(0, 160)}`) }))
}

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

const softly = expect.configure({ soft: true })

/**
 * Scans a screen in a fresh document (a hash-only goto would let the previous screen pass for the next one). A screen
 * may still be answering its requests after it first settles (a button enabling, a toast): the scan is repeated on
 * the settled page until it is clean, so only a violation that stays fails.
 */
async function scan(page: Page, hash: string): Promise<void> {
  scanned.add(canonical(hash))
  await page.goto('about:blank')
  await page.goto(appUrl(hash))
  await settled(page)
  await softly
    .poll(
      async () => {
        await settled(page)
        return seriousFindings(page)
      },
      { message: `axe on ${hash}`, timeout: 45_000, intervals: [1_000, 2_000, 4_000] },
    )
    .toEqual([])
}

/** Every route scanned by some test of this file, checked against the router's list by the last test. */
const scanned = new Set<string>()
const canonical = (hash: string) => {
  const path = hash.split('?')[0]!
  return path === '/' ? PATHS.home : path
}

const VISITOR_SCREENS = [
  '/',
  '/pages/login/login',
  '/pages/quickLogin/quickLogin',
  '/pages/verificationCode/verificationCode?phone=13800138000',
  '/pages/forgotPassword/forgotPassword',
  '/pages/registerAccount/registerAccount',
  '/pages/agreemen/agreemen',
  '/package/ubertragungsseite/ubertragungsseite',
]

test('logged out: every public screen has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(300_000)
  for (const hash of VISITOR_SCREENS) await scan(page, hash)
})

const memberScreens = (userCardId: string) => [
  '/',
  `/package/cloudPhoneView/cloudPhoneView?userCardId=${userCardId}`,
  '/package/bulkOperation/bulkOperation',
  '/package/groupControl/groupControl',
  '/package/replacement/replacement',
  '/package/replacementInfo/replacementInfo',
  '/package/deviceTransfer/deviceTransfer',
  `/package/ubertragungsseite/ubertragungsseite?userCardIds=${userCardId}`,
  '/package/setSecurityCode/setSecurityCode',
  '/package/purchase/purchase',
  `/package/purchase/renew?userCardId=${userCardId}`,
  '/package/purchase/components/alipayCodeScanning?myOrderNum=0',
  '/package/batchRenewal/batchRenewal',
  '/package/batchPurchase/batchPurchase',
  '/package/purchaseRecord/purchaseRecord',
  `/package/timingRecord/timingRecord?userCardId=${userCardId}`,
  '/package/personalInfo/personalInfo',
  '/package/couponNum/couponNum',
  '/package/activationCode/activationCode',
  '/package/starCoin/starCoin',
  '/package/realNameAuthentication/realNameAuthentication',
  '/package/recommendedCloudPhone/recommendedCloudPhone',
  `/package/packageUpgrade/packageUpgrade?userCardId=${userCardId}`,
  '/package/packageUpgradeOrder/packageUpgradeOrder?myOrderNum=0',
  '/package/packageUpgradeResults/packageUpgradeResults?myOrderNum=0',
  '/package/onlineService/onlineService',
  '/package/notificationMessage/notificationMessage',
  '/package/authorizedDevices/authorizedDevices',
  '/package/setUp/setUp',
  '/pages/order/status?myOrderNum=0',
  '/pages/order/result?myOrderNum=0',
  '/pages/agreemen/agreemen',
  '/preview-image',
  '/choose-location',
  '/open-location',
]

test('logged in: every screen has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(600_000)
  await login(page, world.accounts.demo)
  const first = page.getByTestId('device-item').first()
  await expect(first).toBeVisible()
  const userCardId = (await first.getAttribute('data-user-card-id'))!
  for (const hash of memberScreens(userCardId)) await scan(page, hash)
})

test('a confirmation dialog is labelled, holds the focus and has no serious or critical axe violation', async ({ page }) => {
  await login(page, world.accounts.demo)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.getByTestId('logout').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog).toHaveAccessibleName(/退出/)
  await settled(page)
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  expect.soft(await seriousFindings(page), 'axe with the logout dialog open').toEqual([])
  await dialog.getByRole('button', { name: '取消' }).click()
  await expect(dialog).toHaveCount(0)
})

test('the home as a wall (宫格) of live tiles has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(120_000)
  await login(page, world.accounts.fleet)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.getByTestId('home-view-grid').click()
  await expect(page.getByTestId('wall-tile').first()).toHaveAttribute('data-painted', 'true', { timeout: 20_000 })
  await scan(page, '/')
  await expect(page.getByTestId('phone-wall')).toBeVisible()
})

test('the ad view, framing an ad the server lists, has no serious or critical axe violation', async ({ page }) => {
  await login(page, world.accounts.demo)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  const ads = await page.evaluate(async () => {
    const r = await fetch('/api/public/v5/advertising/getAdInfoByAdPlace', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ adPlace: 1 }),
    })
    return ((await r.json()) as { data: Array<{ id: number; clickUrl: string }> }).data
  })
  const ad = ads.find((a) => /^https?:\/\//.test(a.clickUrl))!
  await scan(page, `/package/adView/adView?url=${encodeURIComponent(ad.clickUrl)}&adId=${ad.id}`)
  await expect(page.getByTestId('ad-view-frame')).toBeVisible()
})

test('the bind-phone page of a userType 2 account has no serious or critical axe violation', async ({ page }) => {
  await login(page, world.accounts.unbound)
  await expect(page.getByTestId('bind-phone-page')).toBeVisible()
  await scan(page, PATHS.bindingNumber)
  await expect(page.getByTestId('bind-phone-page')).toBeVisible()
})

test('the cover page shown in WeChat has no serious or critical axe violation', async ({ browser }) => {
  const context = await browser.newContext({ userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile MicroMessenger/8.0.50', locale: 'zh-CN' })
  const page = await context.newPage()
  await scan(page, PATHS.cover)
  await expect(page).toHaveURL(/#\/pages\/cover\/cover/)
  await context.close()
})

test('every route of the router was scanned above', () => {
  expect(ROUTE_PATHS.filter((path) => !scanned.has(path))).toEqual([])
})
