// Issue 8's screens end to end, as this file's own accounts: the index URL and unknown routes, one-tap replacement
// and its messages, recommended cloud phones, the agreement, timing records with the one load-more foot, real-name
// and security-code success, an avatar that every open tab shows at once, back-to-top on a long list, the viewer's
// text area limit.
import QRCode from 'qrcode'
import { expect, skipPopUpAds, test } from './fixtures.ts'
import { appUrl, confirmDialog, login, newWorld, ops, screenshot, type FixtureWorld } from './helpers.ts'
import { startTestProxy } from '../support/test-proxy.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

/** A GB 11643 ID card number no other account of the run uses. */
const freshIdCard = (): string => {
  const body = `110101${1970 + Math.floor(Math.random() * 30)}0${1 + Math.floor(Math.random() * 9)}1${Math.floor(Math.random() * 9)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...body].reduce((n, d, i) => n + Number(d) * weights[i]!, 0)
  return body + '10X98765432'[sum % 11]
}

test('the index URL lands on #/ keeping its query, and an unknown route goes home, for a visitor too', async ({ page }) => {
  await page.goto(appUrl('/pages/index/index?channelCode=E2E14&from=share'))
  await expect(page.getByTestId('home-page')).toBeVisible()
  await expect(page).toHaveURL(/#\/\?channelCode=E2E14&from=share$/)
  await page.goto(appUrl('/package/noSuchScreen/noSuchScreen?x=1'))
  await expect(page).toHaveURL(/#\/$/)
  await expect(page.getByTestId('home-page')).toBeVisible()
})

test('one-tap replacement gives a device a new number, listed in the new-device messages', async ({ page }) => {
  await login(page, world.accounts.demo)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.goto(appUrl('/package/replacement/replacement'))
  const usable = page.locator('[data-testid="replacement-picker-item"]:not(.dv-picker-item-disabled)')
  await expect(usable.first()).toBeVisible()
  const before = Number(await usable.first().getAttribute('data-user-card-id'))
  await usable.first().click()
  await page.getByTestId('replacement-submit').click()
  await confirmDialog(page)
  const done = page.getByTestId('replacement-done')
  await expect(done).toBeVisible()
  await expect(done).not.toContainText(String(before))
  await screenshot(page, 'replacement-done')
  await page.getByTestId('replacement-info-link').click()
  await expect(page).toHaveURL(/replacementInfo/)
  await expect(page.getByTestId('replacement-record').first()).toContainText(String(before))
  await screenshot(page, 'replacement-info')
})

test('recommended cloud phones, reached from the home\'s entry grid, list my usable devices and open one in the viewer', async ({ page }) => {
  await login(page, world.accounts.member)
  await expect(page.getByTestId('home-page')).toBeVisible()
  await page.getByTestId('shortcut-recommended').click()
  await expect(page).toHaveURL(/#\/package\/recommendedCloudPhone\/recommendedCloudPhone$/)
  const item = page.getByTestId('recommended-item').first()
  await expect(item).toBeVisible()
  await screenshot(page, 'recommended-cloud-phone')
  await item.click()
  await expect(page).toHaveURL(/cloudPhoneView\?userCardId=\d+/)
  const viewer = page.getByTestId('viewer')
  await expect(viewer).toHaveAttribute('data-phase', 'live', { timeout: 30_000 })
  // §9: the one text area of the app, the text sent to the device, takes 140 characters at most
  const text = page.getByTestId('viewer-text-input')
  await expect(text).toHaveAttribute('maxlength', '140')
  await text.fill('字'.repeat(200))
  await expect(text).toHaveValue('字'.repeat(140))
})

test('a list that fails to load says so with the server\'s reason and a retry, never as an empty list', async ({ page }) => {
  await skipPopUpAds(page)
  const proxy = await startTestProxy(process.env.E2E_BASE_URL!)
  const screens = [
    { path: '/package/recommendedCloudPhone/recommendedCloudPhone', endpoint: catalogue.getCommonUserCard.path, failed: 'recommended-failed', title: '推荐云手机加载失败', shown: 'recommended-item' },
    { path: '/package/replacementInfo/replacementInfo', endpoint: catalogue.replacementRecords.path, failed: 'replacement-info-failed', title: '换机消息加载失败', shown: 'replacement-info-empty' },
    { path: '/package/authorizedDevices/authorizedDevices', endpoint: catalogue.getPhoneAuthNewRecord.path, failed: 'auth-failed', title: '授权记录加载失败', shown: 'auth-empty' },
  ]
  try {
    await login(page, world.accounts.member, proxy.appUrl)
    await expect(page.getByTestId('device-item').first()).toBeVisible()
    const userCardId = await page.getByTestId('device-item').first().getAttribute('data-user-card-id')
    screens.push({
      path: `/package/packageUpgrade/packageUpgrade?userCardId=${userCardId}`, endpoint: catalogue.getChangePackageList.path,
      failed: 'upgrade-failed', title: '可升级套餐加载失败', shown: 'upgrade-option',
    })
    for (const screen of screens) {
      proxy.rewrite(screen.endpoint, { bodyStatus: 500, msg: '服务繁忙，请稍后再试' })
      await page.goto(proxy.appUrl(screen.path))
      const failed = page.getByTestId(screen.failed)
      await expect(failed).toContainText(screen.title)
      await expect(failed).toContainText('服务繁忙，请稍后再试')
      await screenshot(page, screen.failed)
      proxy.clear(screen.endpoint)
      await failed.getByRole('button', { name: '重试' }).click()
      await expect(failed).toHaveCount(0)
      // this file's member has devices (a standard one can move up), but no replacement messages or authorisations:
      // the retry shows what is there
      await expect(page.getByTestId(screen.shown).first()).toBeVisible()
    }
    // an order's result, and the upgrade's pay order: failed, then the server's own answer for an order that is not
    // the member's (the paid paths are in 06-pay)
    for (const [path, failedId] of [['/pages/order/result', 'order-result-failed'], ['/package/packageUpgradeOrder/packageUpgradeOrder', 'upgrade-order-failed']]) {
      proxy.rewrite(catalogue.orderDetail.path, { bodyStatus: 500, msg: '服务繁忙，请稍后再试' })
      await page.goto(proxy.appUrl(`${path}?myOrderNum=E2E14-NOT-MINE`))
      const failed = page.getByTestId(failedId)
      await expect(failed).toContainText('订单加载失败')
      await expect(failed).toContainText('服务繁忙，请稍后再试')
      proxy.clear(catalogue.orderDetail.path)
      await failed.getByRole('button', { name: '重试' }).click()
      await expect(failed).toContainText('订单不存在')
    }
    // a device's model parameters, in home's sheet
    proxy.rewrite(catalogue.getUserCardModelParameters.path, { bodyStatus: 500, msg: '服务繁忙，请稍后再试' })
    await page.goto(proxy.appUrl('/'))
    await page.getByTestId('device-item').first().getByTestId('device-action-more').click()
    await page.getByTestId('device-action-model').click()
    const failed = page.getByTestId('model-failed')
    await expect(failed).toContainText('机型参数加载失败')
    await screenshot(page, 'model-failed')
    proxy.clear(catalogue.getUserCardModelParameters.path)
    await failed.getByRole('button', { name: '重试' }).click()
    await expect(page.getByTestId('model-imei')).not.toBeEmpty()
    await expect(failed).toHaveCount(0)
  } finally {
    await proxy.close()
  }
})

test('the agreement shows the server\'s text as text, for a visitor', async ({ page }) => {
  await page.goto(appUrl('/pages/agreemen/agreemen'))
  const content = page.getByTestId('agreement-content')
  await expect(content).toBeVisible()
  await expect(content).toContainText(/协议/)
  expect(await content.locator('script, iframe, a[href^="javascript"]').count()).toBe(0)
  await screenshot(page, 'agreement')
})

test('timing records show their types and durations, and end in the one load-more foot', async ({ page }) => {
  await login(page, world.accounts.demo)
  await expect(page.getByTestId('home-page')).toBeVisible()
  await page.goto(appUrl('/package/timingRecord/timingRecord'))
  const record = page.getByTestId('timing-record')
  await expect(record.first()).toBeVisible()
  await expect(record.first().getByTestId('timing-type')).toHaveText(/^(特权定时|普通定时)$/)
  await expect(record.first().getByTestId('timing-duration')).toHaveText(/^(\d+天)?(\d+小时)?(\d+分钟)?$/)
  await screenshot(page, 'timing-records')
  const foot = page.getByTestId('timing-more')
  await foot.scrollIntoViewIfNeeded()
  await expect(foot).toHaveText('没有更多了', { timeout: 15_000 })
  const total = await record.count()
  expect(total).toBeGreaterThan(0)
  await expect(page.getByText('正在加载...')).toHaveCount(0)
})

test('real-name verification succeeds with a valid ID card and shows it masked', async ({ page }) => {
  await login(page, world.accounts.member)
  await expect(page.getByTestId('home-page')).toBeVisible()
  await page.goto(appUrl('/package/realNameAuthentication/realNameAuthentication'))
  const idCard = freshIdCard()
  await page.getByTestId('real-name-name').fill('李小明')
  await page.getByTestId('real-name-id').fill(idCard)
  await page.getByTestId('real-name-submit').click()
  await expect(page.getByTestId('real-name-verified')).toBeVisible()
  await expect(page.getByTestId('real-name-id-masked')).toContainText('*')
  await expect(page.getByTestId('real-name-id-masked')).not.toContainText(idCard)
  await screenshot(page, 'real-name-verified')
  await page.reload()
  await expect(page.getByTestId('real-name-verified')).toBeVisible()
})

test('a security code is set with the SMS code sent to the account\'s own phone', async ({ page }) => {
  const member = world.accounts.member
  await login(page, member)
  await expect(page.getByTestId('home-page')).toBeVisible()
  await page.goto(appUrl('/package/setSecurityCode/setSecurityCode'))
  await expect(page.getByTestId('security-already-set')).toHaveCount(0)
  await page.getByTestId('security-sms-send').click()
  await expect(page.getByTestId('security-sms-send')).toContainText('秒重新获取')
  const code = (await ops('sms', member.phone)).trim()
  expect(code).toMatch(/^\d{6}$/)
  await page.getByTestId('security-sms').fill(code)
  await page.getByTestId('security-password').fill('246810')
  await page.getByTestId('security-confirm').fill('246810')
  await page.getByTestId('security-submit').click()
  await expect(page.getByText('安全码设置成功')).toBeVisible()
  await page.goto(appUrl('/package/setSecurityCode/setSecurityCode'))
  await expect(page.getByTestId('security-already-set')).toBeVisible()
  await screenshot(page, 'security-code-set')
})

test('a new avatar shows at once in every open tab: home and another personal centre', async ({ context, page }) => {
  await login(page, world.accounts.demo)
  await expect(page.getByTestId('home-page')).toBeVisible()
  const home = await context.newPage()
  await home.goto(appUrl('/'))
  await expect(home.getByTestId('home-phone')).toBeVisible()
  const otherCentre = await context.newPage()
  await otherCentre.goto(appUrl('/package/personalInfo/personalInfo'))
  await expect(otherCentre.getByTestId('avatar-change')).toBeVisible()

  await page.goto(appUrl('/package/personalInfo/personalInfo'))
  const png = await QRCode.toBuffer(`avatar ${Date.now()}`, { width: 200 })
  await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png })
  await expect(page.getByText('头像已更新')).toBeVisible()
  const image = page.getByTestId('avatar-image').locator('img')
  await expect(image).toHaveAttribute('src', /fileKey=/)
  const src = (await image.getAttribute('src'))!
  // neither tab reloads or navigates: the core's shared state brings them the new avatar
  await expect(home.getByTestId('home-avatar')).toHaveAttribute('src', src)
  await expect(otherCentre.getByTestId('avatar-image').locator('img')).toHaveAttribute('src', src)
  await screenshot(home, 'home-avatar')
})

test('a long list offers back-to-top past 400 px, which takes it to the top', async ({ page }) => {
  await login(page, world.accounts.fleet)
  await expect(page.getByTestId('device-item')).toHaveCount(60)
  await expect(page.getByTestId('back-to-top')).toHaveCount(0)
  await page.getByTestId('device-item').last().scrollIntoViewIfNeeded()
  const button = page.getByTestId('back-to-top')
  await expect(button).toBeVisible()
  await screenshot(page, 'home-back-to-top')
  await button.click()
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  await expect(button).toHaveCount(0)
})

test('the cover page and the viewer follow the custom navigation bar rule (status bar + 45 off Android)', async ({ browser, page }) => {
  const wechat = await browser.newContext({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.40',
    viewport: { width: 390, height: 844 }, locale: 'zh-CN',
  })
  const inApp = await wechat.newPage()
  await inApp.goto(appUrl('/package/setUp/setUp'))
  const cover = inApp.getByTestId('cover-page')
  await expect(cover).toBeVisible()
  await expect(cover.getByTestId('nav-title')).toHaveText('星云云手机')
  expect((await cover.locator('header.navbar').boundingBox())!.height).toBe(45)
  await expect(cover.getByRole('button', { name: '返回' })).toHaveCount(0)
  await screenshot(inApp, 'cover')
  await wechat.close()

  await login(page, world.accounts.demo)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.getByTestId('device-item').first().click()
  await expect(page).toHaveURL(/cloudPhoneView/)
  expect((await page.getByTestId('viewer-top').boundingBox())!.height).toBe(45)
  await screenshot(page, 'viewer-top-bar')
})

test('a visitor turned away from a protected screen is taken there after signing in', async ({ page }) => {
  await page.goto(appUrl('/package/couponNum/couponNum'))
  await expect(page).toHaveURL(/#\/$/)
  await expect(page.getByTestId('home-page')).toBeVisible()
  await login(page, world.accounts.member)
  await expect(page).toHaveURL(/#\/package\/couponNum\/couponNum$/)
  await expect(page.getByTestId('coupons-footer')).toBeVisible()
  // the keys are cleared on arrival: back is an ordinary back
  await page.getByRole('button', { name: '返回' }).click()
  await expect(page.getByTestId('home-page')).toBeVisible()
})

test('a device list that cannot be loaded, with none stored, shows the error view with the reason; 重试 loads it', async ({ page }) => {
  // the proxy's origin has a core and storage of its own: nothing is stored before this login
  const proxy = await startTestProxy(process.env.E2E_BASE_URL!)
  try {
    const LIST = catalogue.getDeviceList.path
    proxy.rewrite(LIST, { bodyStatus: 500, msg: '设备服务暂不可用' })
    await login(page, world.accounts.demo, proxy.appUrl)
    // the view is a chunk of its own, fetched when it is first needed (or at idle)
    const failed = page.getByTestId('home-error')
    await expect(failed).toBeVisible()
    await expect(failed).toContainText('加载失败')
    await expect(failed).toContainText('设备服务暂不可用')
    await expect(page.getByTestId('device-item')).toHaveCount(0)
    await screenshot(page, 'home-load-failed')
    proxy.clear(LIST)
    await failed.getByRole('button', { name: '重试' }).click()
    await expect(page.getByTestId('device-item')).toHaveCount(5)
    await expect(failed).toHaveCount(0)
    // the page goes before its proxy: the previews it is still loading are not errors of the app
    await page.close()
  } finally {
    await proxy.close()
  }
})
