// Account screens end to end as this file's member account: personal info and settings, coupons by tab, a coupon
// activation code, real-name refusal, star coins, security code, service.
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, screenshot, type FixtureWorld } from './helpers.ts'
import type { Page } from '@playwright/test'

const open = async (page: Page, path: string) => {
  await page.goto(appUrl(path))
}

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

test.beforeEach(async ({ page }) => {
  await login(page, world.accounts.member)
  await expect(page.getByTestId('home-page')).toBeVisible()
})

test('personal info shows the nickname, the masked phone, counts and the invitation link; settings show the version', async ({ page }) => {
  await open(page, '/package/personalInfo/personalInfo')
  await expect(page.getByTestId('personal-name')).toHaveText('普通会员')
  await expect(page.getByTestId('personal-phone')).toHaveText(`${world.accounts.member.phone.slice(0, 3)}****${world.accounts.member.phone.slice(7)}`)
  await expect(page.getByTestId('personal-star-coin')).toContainText('70')
  await expect(page.getByTestId('invite-link')).toContainText(`/cloud/phone/web/#/pages/login/login?invitationUserName=${world.accounts.member.username}`)
  await screenshot(page, 'account-personal-info')
  await page.getByTestId('personal-settings').click()
  await expect(page.getByTestId('settings-version')).toContainText('5.9.2')
  await screenshot(page, 'account-settings')
  await page.getByTestId('settings-logout').click()
  await expect(page.getByRole('dialog')).toContainText('确定要退出当前账号吗？')
  await page.getByRole('dialog').getByRole('button', { name: '取消' }).click()
  await expect(page.getByTestId('settings-page')).toBeVisible()
})

test('the coupon tabs show the seeded coupons of each state', async ({ page }) => {
  await open(page, '/package/couponNum/couponNum')
  const names = page.getByTestId('coupon-list').getByTestId('coupon-name')
  await expect(names.filter({ hasText: '10元无门槛券' })).toBeVisible()
  await expect(page.getByTestId('coupon-item').first()).toHaveAttribute('data-status', '1')
  await screenshot(page, 'account-coupons-effective')
  for (const [status, name] of [[2, '新人5元券'], [3, '首购9折券'], [4, '春节8折券']] as const) {
    await page.getByTestId(`coupon-tab-${status}`).click()
    await expect(page.getByTestId('coupon-list')).toHaveAttribute('data-status', String(status))
    await expect(names.filter({ hasText: name })).toBeVisible()
  }
  await screenshot(page, 'account-coupons-invalid')
  await expect(page.getByTestId('coupons-footer')).toHaveText('没有更多了')
})

test('a coupon activation code adds the coupon to the effective tab', async ({ page }) => {
  await open(page, '/package/activationCode/activationCode')
  await page.getByTestId('activation-input').fill('ABC')
  await page.getByTestId('activation-submit').click()
  await expect(page.getByTestId('activation-error')).toHaveText('请输入15位激活码')
  await page.getByTestId('activation-input').fill(world.codes.coupon.toLowerCase()) // typed case-insensitively
  await page.getByTestId('activation-submit').click()
  await expect(page.getByTestId('activation-result')).toContainText('激活码专享5元券')
  await screenshot(page, 'account-activation-coupon')
  await page.getByTestId('activation-view-coupons').click()
  await expect(page.getByTestId('coupon-list').getByTestId('coupon-name').filter({ hasText: '激活码专享5元券' })).toBeVisible()
  await expect(page.getByTestId('coupon-news-coupons')).toContainText('1')
  await screenshot(page, 'account-coupons-after-code')
})

test('a device activation code asks which own device gets the days', async ({ page }) => {
  await open(page, '/package/activationCode/activationCode')
  await page.getByTestId('activation-input').fill(world.codes.device)
  await page.getByTestId('activation-submit').click()
  await expect(page.getByTestId('activation-device-popup')).toBeVisible()
  await expect(page.getByTestId('activation-device-picker-item').first()).toBeVisible()
  await expect(page.getByTestId('activation-device-confirm')).toBeInViewport()
  await screenshot(page, 'account-activation-device')
})

test('real-name verification refuses an ID card with a wrong checksum in Chinese', async ({ page }) => {
  await open(page, '/package/realNameAuthentication/realNameAuthentication')
  await page.getByTestId('real-name-name').fill('张三')
  await page.getByTestId('real-name-id').fill('110101199003077578')
  await page.getByTestId('real-name-submit').click()
  await expect(page.getByTestId('real-name-id-error')).toHaveText('身份证号码格式不正确')
  await screenshot(page, 'account-real-name')
})

test('star coins show the balance and both record tabs', async ({ page }) => {
  await open(page, '/package/starCoin/starCoin')
  await expect(page.getByTestId('star-coin-balance')).toHaveText('70')
  await expect(page.getByTestId('star-coin-record').first()).toBeVisible()
  await screenshot(page, 'account-star-coin')
  // 12 records, 10 a page: the second page loads once the list foot comes into view
  await page.getByTestId('star-coin-footer').scrollIntoViewIfNeeded()
  await expect(page.getByTestId('star-coin-record')).toHaveCount(12)
  await expect(page.getByTestId('star-coin-footer')).toHaveText('没有更多了')
  await page.getByTestId('star-coin-tab-used').click()
  await expect(page.getByTestId('star-coin-record')).toHaveCount(2)
})

test('security code and online service screens', async ({ page }) => {
  await open(page, '/package/setSecurityCode/setSecurityCode')
  await page.getByTestId('security-password').fill('123456')
  await page.getByTestId('security-confirm').fill('654321')
  await page.getByTestId('security-submit').click()
  await expect(page.getByTestId('security-confirm-error')).toHaveText('两次输入的安全码不一致')
  await screenshot(page, 'account-security-code')
  await open(page, '/package/onlineService/onlineService')
  await expect(page.getByTestId('service-phone')).not.toBeEmpty()
  await expect(page.getByTestId('service-chat')).toBeVisible()
  await screenshot(page, 'account-online-service')
})
