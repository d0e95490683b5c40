// Purchase rules as this file's partner account: the purchase screens show the server's rules texts and phone-type
// tags, batch purchase buys two devices in one order, and the operator's batch switch hides every batch entry.
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, ops, screenshot, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

test('purchase shows the rules and tags; batch purchase buys two devices in one order', async ({ page }) => {
  await login(page, world.accounts.partner)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  const before = await page.getByTestId('device-item').count()
  await expect(page.getByTestId('shortcut-batchRenewal')).toBeVisible()

  await page.goto(appUrl('/package/purchase/purchase?phoneType=STANDARD&androidVersion=12'))
  await expect(page.getByTestId('meal-rules')).toContainText('购买须知')
  await expect(page.getByTestId('meal-rules')).toContainText('每个账号最多拥有60台云手机')
  await expect(page.getByTestId('meal-tag-PERFORMANCE')).toHaveText('推荐')
  await screenshot(page, 'purchase-tags')
  await page.getByTestId('meal-rules').scrollIntoViewIfNeeded()
  await screenshot(page, 'purchase-rules')

  await page.getByTestId('buy-batch-entry').click()
  await expect(page.getByTestId('batch-purchase-page')).toBeVisible()
  await expect(page.getByTestId('batch-meal-rules')).toContainText('批量购买须知')
  await page.locator('[data-testid="buy-meal"][data-day="1"]').click()
  await page.getByTestId('buy-quantity').getByRole('button', { name: '增加' }).click()
  await expect(page.getByTestId('buy-quantity').getByRole('spinbutton')).toHaveValue('2')
  await screenshot(page, 'batch-purchase')
  await page.getByTestId('buy-method-alipayQr').click()
  await page.getByTestId('buy-submit').click()
  await expect(page.getByRole('dialog')).toContainText('2台')
  await page.getByRole('dialog').getByRole('button', { name: '确认支付', exact: true }).click()
  const myOrderNum = (await page.getByTestId('pay-order-num').textContent())!.trim()
  expect(await ops('pay', myOrderNum, 'success')).toContain('已支付')
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true')
  await page.getByTestId('order-result-home').click()
  await expect(page.getByTestId('device-item')).toHaveCount(before + 2)
})

test('with the batch switch off no batch entry is offered and the batch screens say so', async ({ page }) => {
  await login(page, world.accounts.partner)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await ops('switch', 'batch', 'off')
  try {
    await page.reload()
    await expect(page.getByTestId('shortcut-purchase')).toBeVisible()
    await expect(page.getByTestId('shortcut-batchRenewal')).toHaveCount(0)
    await page.goto(appUrl('/package/purchase/purchase'))
    await expect(page.getByTestId('buy-meal').first()).toBeVisible()
    await expect(page.getByTestId('buy-batch-entry')).toHaveCount(0)
    await page.goto(appUrl('/package/batchPurchase/batchPurchase'))
    await expect(page.getByTestId('batch-closed')).toHaveText('批量购买与批量续费暂未开放')
    await page.goto(appUrl('/package/batchRenewal/batchRenewal'))
    await expect(page.getByTestId('batch-closed')).toBeVisible()
    await screenshot(page, 'batch-closed')
  } finally {
    await ops('switch', 'batch', 'on')
  }
})
