// Walking skeleton, end to end: two tabs share one core and one push connection; operator pushes reach both tabs.
import { test, expect } from './fixtures.ts'
import { appUrl, connectionsOf, expectDeviceCount, login, newWorld, ops, screenshot, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

test('a second tab is already logged in, sees the same list, and the user has exactly one push connection', async ({ context }) => {
  const first = await context.newPage()
  await first.goto(appUrl('/pages/login/login'))
  await expect(first.getByTestId('login-submit')).toBeVisible()
  await screenshot(first, 'login')
  await login(first, world.accounts.demo)
  await expectDeviceCount(first, 5)
  await screenshot(first, 'home')

  const second = await context.newPage()
  await second.goto(appUrl('/'))
  await expectDeviceCount(second, 5)
  const names = async (p: typeof first) => p.getByTestId('device-name').allTextContents()
  expect(await names(second)).toEqual(await names(first))

  await expect.poll(() => connectionsOf(world.accounts.demo.phone), { timeout: 15_000 }).toBe(1)
  await second.waitForTimeout(1_000)
  expect(await connectionsOf(world.accounts.demo.phone)).toBe(1)
})

test('refreshCloudPhoneList from the operator refreshes the list in both tabs', async ({ context }) => {
  const first = await context.newPage()
  await login(first, world.accounts.demo)
  await expectDeviceCount(first, 5)
  const second = await context.newPage()
  await second.goto(appUrl('/'))
  await expectDeviceCount(second, 5)
  await expect.poll(() => connectionsOf(world.accounts.demo.phone)).toBe(1)

  const before = await first.getByTestId('device-list').getAttribute('data-fetched-at')
  await ops('push', world.accounts.demo.phone, 'refreshCloudPhoneList')
  for (const page of [first, second]) {
    await expect(page.getByTestId('device-list')).not.toHaveAttribute('data-fetched-at', before ?? '')
  }
  expect(await second.getByTestId('device-list').getAttribute('data-fetched-at'))
    .toBe(await first.getByTestId('device-list').getAttribute('data-fetched-at'))
})

test('forcedOfflineMsg shows the Tip modal in both tabs and sends both to login', async ({ context }) => {
  const first = await context.newPage()
  await login(first, world.accounts.demo)
  await expectDeviceCount(first, 5)
  const second = await context.newPage()
  await second.goto(appUrl('/'))
  await expectDeviceCount(second, 5)
  await expect.poll(() => connectionsOf(world.accounts.demo.phone)).toBe(1)

  await ops('push', world.accounts.demo.phone, 'forcedOfflineMsg', JSON.stringify({ content: '您的账号已在另一台设备登录' }))
  for (const page of [first, second]) {
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('提示')
    await expect(dialog).toContainText('您的账号已在另一台设备登录')
    await expect(dialog.getByText('去登录')).toBeVisible()
  }
  await screenshot(first, 'forced-offline')
  for (const page of [first, second]) {
    await page.getByRole('dialog').getByText('去登录').click()
    await expect(page).toHaveURL(/#\/pages\/login\/login/)
    await expect(page.getByTestId('login-submit')).toBeVisible()
  }
  await expect.poll(() => connectionsOf(world.accounts.demo.phone)).toBe(0)
})

test('a userType 2 account lands on the bind-phone page', async ({ page }) => {
  await login(page, world.accounts.unbound)
  await expect(page).toHaveURL(/#\/package\/bindingNumber\/bindingNumber/)
  await expect(page.getByTestId('bind-phone-page')).toBeVisible()
  await page.goto(appUrl('/'))
  await expect(page).toHaveURL(/#\/package\/bindingNumber\/bindingNumber/)
  await screenshot(page, 'bind-phone')
})
