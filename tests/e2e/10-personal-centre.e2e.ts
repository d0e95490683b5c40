// The personal centre's activities as this file's member account: redeeming star coins for an activation code, exchanging it on the
// activation code page, and the new coupon it gave appearing on the personal centre.
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, screenshot, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

test('star coins redeemed for a coupon code that exchanges into a new coupon', async ({ page }) => {
  await login(page, world.accounts.member)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.goto(appUrl('/package/personalInfo/personalInfo'))
  await expect(page.getByTestId('personal-activity')).toHaveCount(2)
  await expect(page.getByTestId('personal-star-coin').locator('strong')).toHaveText(/^\d+$/)
  const coins = Number(await page.getByTestId('personal-star-coin').locator('strong').textContent())
  expect(coins).toBeGreaterThanOrEqual(50)
  await page.getByTestId('personal-activities').scrollIntoViewIfNeeded()
  await screenshot(page, 'personal-activities')

  await page.locator('[data-testid="personal-activity"][data-activity-id="1"]').getByTestId('personal-activity-redeem').click()
  await page.getByRole('dialog').getByRole('button', { name: '确认兑换' }).click()
  const code = page.getByTestId('redeemed-code')
  await expect(code).toHaveText(/^[A-Z2-9]{15}$/)
  const text = (await code.textContent())!
  await screenshot(page, 'personal-redeemed')
  await expect(page.getByTestId('personal-star-coin').locator('strong')).toHaveText(String(coins - 50))

  await page.getByRole('dialog').getByRole('button', { name: '去兑换' }).click()
  await expect(page).toHaveURL(/activationCode/)
  await page.getByTestId('activation-input').fill(text)
  await page.getByTestId('activation-submit').click()
  await expect(page.getByTestId('activation-result')).toContainText('星币兑换10元券')

  await page.goto(appUrl('/package/personalInfo/personalInfo'))
  await expect(page.getByTestId('personal-new-coupons')).toContainText('星币兑换10元券')
  await screenshot(page, 'personal-new-coupons')
  await page.getByTestId('personal-new-coupons').click()
  await expect(page).toHaveURL(/couponNum/)
})
