// Buying packages end to end as this file's partner account: star coins pay at once; the Alipay QR order is paid by
// opening its code (read off the screen) in another tab, the reference gateway's page, with no operator; both add a
// device on home. Each test has its own accounts and
// buys what it needs first, so any test passes alone.
import { type Page } from '@playwright/test'
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, ops, scanQrCode, screenshot, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeEach(async () => { world = await newWorld() })
const OTHER = () => world.accounts.partner
/** the partner's own device, authorised out, and the demo device authorised to the partner: not renewable here. */
const notBought = () => [world.cards['伙伴的云手机'], world.cards['已授权云手机']]

async function homeCount(page: Page): Promise<number> {
  await page.goto(appUrl('/'))
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  return page.getByTestId('device-item').count()
}

async function chooseDayCard(page: Page): Promise<void> {
  await page.goto(appUrl('/package/purchase/purchase?phoneType=STANDARD&androidVersion=12'))
  await expect(page.getByTestId('buy-android-12')).toHaveAttribute('aria-pressed', 'true')
  await page.locator('[data-testid="buy-meal"][data-day="1"]').click()
}

async function confirmPay(page: Page): Promise<void> {
  await page.getByTestId('buy-submit').click()
  await page.getByRole('dialog').getByRole('button', { name: '确认支付', exact: true }).click()
}

/** Buys a day card with star coins (20 of the account's 70): a device of one's own and a paid order. */
async function buyWithStarCoins(page: Page): Promise<void> {
  await chooseDayCard(page)
  await page.getByTestId('buy-method-starCoin').click()
  await confirmPay(page)
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true')
}

test('buying a day card with star coins adds a device to home', async ({ page }) => {
  await login(page, OTHER())
  const before = await homeCount(page)
  await chooseDayCard(page)
  await expect(page.getByTestId('buy-meal').first()).toBeVisible()
  await screenshot(page, 'pay-purchase')
  await page.getByTestId('buy-method-starCoin').click()
  await expect(page.getByTestId('buy-total')).toHaveText('20星币')
  await screenshot(page, 'pay-purchase-star-coins')
  await confirmPay(page)
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true')
  await screenshot(page, 'pay-result-star-coins')
  await page.getByTestId('order-result-home').click()
  await expect(page.getByTestId('device-item')).toHaveCount(before + 1)
})

test('an Alipay QR order paid by opening its code in another tab shows the result and the new device', async ({ page }) => {
  await login(page, OTHER())
  const before = await homeCount(page)
  await chooseDayCard(page)
  await expect(page.getByTestId('buy-coupon-item').first()).toBeVisible()
  await screenshot(page, 'pay-purchase-coupons')
  await confirmPay(page)
  await expect(page.getByTestId('pay-order-qr')).toContainText('/api/pay/reference-gateway/')
  await expect(page.getByTestId('pay-order-countdown')).toContainText(/\d\d:\d\d/)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await screenshot(page, 'pay-order-qr')
  const tab = await page.context().newPage()
  await tab.goto(await scanQrCode(page.getByTestId('pay-order-qr-image')))
  await tab.getByRole('button', { name: '确认支付' }).click()
  await expect(tab.getByRole('heading', { level: 1 })).toHaveText('支付成功')
  await tab.close()
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true')
  await screenshot(page, 'pay-result-alipay')
  await page.getByTestId('order-result-home').click()
  await expect(page.getByTestId('device-item')).toHaveCount(before + 1)
})

test('a renewal whose payment fails shows the failure; records list orders and cancel an unpaid one', async ({ page }) => {
  await login(page, OTHER())
  await homeCount(page)
  await buyWithStarCoins(page)
  await buyWithStarCoins(page)
  await homeCount(page)
  const ids = await page.getByTestId('device-item').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-user-card-id'))))
  const bought = ids.find((id) => !notBought().includes(id))
  expect(bought).toBeDefined()

  await page.goto(appUrl(`/package/purchase/renew?userCardId=${bought}`))
  await expect(page.getByTestId('renew-device')).toBeVisible()
  await page.locator('[data-testid="buy-meal"][data-day="1"]').click()
  await expect(page.getByTestId('buy-total')).toHaveText(/¥/)
  await screenshot(page, 'pay-renew')
  await confirmPay(page)
  const myOrderNum = (await page.getByTestId('pay-order-num').textContent())!.trim()
  expect(await ops('pay', myOrderNum, 'fail')).toContain('支付失败')
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'false')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await screenshot(page, 'pay-result-failed')

  await page.goto(appUrl(`/package/purchase/renew?userCardId=${world.cards['伙伴的云手机']}`))
  await expect(page.getByTestId('renew-refused')).toBeVisible()

  await chooseDayCard(page)
  await confirmPay(page)
  const unpaid = (await page.getByTestId('pay-order-num').textContent())!.trim()
  await page.goto(appUrl('/package/purchaseRecord/purchaseRecord'))
  await expect(page.getByTestId('order-item').first()).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await screenshot(page, 'pay-records-all')
  await page.getByTestId('orders-tab-unpaid').click()
  const item = page.locator(`[data-testid="order-item"][data-order-num="${unpaid}"]`)
  await expect(item.getByTestId('order-countdown')).toContainText(/\d\d:\d\d/)
  await screenshot(page, 'pay-records-unpaid')
  await item.getByTestId('order-cancel').click()
  await page.getByRole('dialog').getByRole('button', { name: '确定', exact: true }).click()
  await expect(item).toHaveCount(0)
  await page.getByTestId('orders-tab-paid').click()
  await expect(page.locator('[data-testid="order-item"][data-finish-pay="1"]')).toHaveCount(2)

  await page.goto(appUrl('/package/batchRenewal/batchRenewal'))
  await page.locator(`[data-testid="renew-picker-item"][data-user-card-id="${bought}"]`).click()
  await expect(page.getByTestId('renew-chosen')).toBeVisible()
  await expect(page.getByTestId('buy-meal').first()).toBeVisible()
  await screenshot(page, 'pay-batch-renewal')
})

/** Opens a device's 更多 sheet on home. */
async function openMore(page: Page, userCardId: number): Promise<void> {
  await page.locator(`[data-testid="device-actions"][data-user-card-id="${userCardId}"]`).getByTestId('device-action-more').click()
  await expect(page.getByTestId('device-action-upgrade')).toBeVisible()
}

test('a package upgrade, reached from the device\'s 更多 → 套餐升级 and paid with star coins, shows the device on the higher tier', async ({ page }) => {
  await login(page, OTHER())
  await homeCount(page)
  await buyWithStarCoins(page)
  await homeCount(page)
  const ids = await page.getByTestId('device-item').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-user-card-id'))))
  const bought = ids.find((id) => !notBought().includes(id))!
  // a device authorised to someone else cannot be upgraded: the entry is there, disabled
  const upgradeEntry = page.locator('a:has([data-testid="device-action-upgrade"])')
  await openMore(page, world.cards['伙伴的云手机'])
  await expect(upgradeEntry).toHaveAttribute('aria-disabled', 'true')
  await page.locator('.adm-action-sheet-cancel a').click()
  await expect(page.getByTestId('device-action-upgrade')).toBeHidden()
  await openMore(page, bought)
  await expect(upgradeEntry).not.toHaveAttribute('aria-disabled', 'true')
  await page.getByTestId('device-action-upgrade').click()
  await expect(page).toHaveURL(new RegExp(`packageUpgrade\\?userCardId=${bought}$`))
  await expect(page.getByTestId('upgrade-option').first()).toBeVisible()
  await screenshot(page, 'pay-upgrade')
  await page.getByTestId('upgrade-submit').click()
  await page.getByRole('dialog').getByRole('button', { name: '确认支付', exact: true }).click()
  await expect(page.getByTestId('upgrade-order')).toBeVisible()
  await page.getByTestId('upgrade-method-starCoin').click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await screenshot(page, 'pay-upgrade-order')
  await page.getByTestId('upgrade-pay').click()
  await page.getByRole('dialog').getByRole('button', { name: '确认支付', exact: true }).click()
  await expect(page.getByTestId('upgrade-result')).toHaveAttribute('data-ok', 'true')
  await expect(page.getByTestId('upgrade-result-tier')).toHaveText('SVIP')
  await screenshot(page, 'pay-upgrade-results')
})
