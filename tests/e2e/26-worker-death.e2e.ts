// Issue 21 item 2, end to end: the core's SharedWorker killed for real, as Android kills it: the DevTools protocol
// closes its target (Target.closeTarget), so no code of it runs and the tabs must find out on their own (the worker's
// lifetime Web Lock). Through the test proxy, so a request can be held in flight across the kill.
import type { Browser, Page } from '@playwright/test'
import { test, expect, noSharedWorker } from './fixtures.ts'
import { confirmDialog, killCores, loggedInTabs, newWorld, ops, type FixtureWorld } from './helpers.ts'
import { startTestProxy, type TestProxy } from '../support/test-proxy.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { zhCN } from '../../src/i18n/zh-CN.ts'

let world: FixtureWorld
let proxy: TestProxy
test.beforeAll(async () => {
  world = await newWorld()
  proxy = await startTestProxy(process.env.E2E_BASE_URL!)
})
test.afterAll(async () => proxy.close())
test.afterEach(() => proxy.clear())

/** Kills the app's core (the proxy's origin); resolves as it is gone. */
async function killCore(browser: Browser): Promise<number> {
  const killed = await killCores(browser, new URL(proxy.appUrl('/')).origin)
  expect(killed).toBeGreaterThan(0)
  if (!noSharedWorker) expect(killed).toBe(1)
  return Date.now()
}

const couponCount = async (page: Page) => Number(await page.getByTestId('counter-coupon').getAttribute('data-count'))

test('killed with three tabs open: a page opened right after shows its list, and pushes reach every tab again', async ({ browser, context }) => {
  test.setTimeout(120_000)
  const tabs = await loggedInTabs(context, 3, world.accounts.demo, proxy.appUrl)
  const before = await couponCount(tabs[0]!)
  const killedAt = await killCore(browser)
  // the case: a tab opens the notices in the window where no worker runs
  await tabs[2]!.goto(proxy.appUrl('/package/notificationMessage/notificationMessage'))
  await expect(tabs[2]!.getByTestId('notices-list')).toBeVisible({ timeout: 5_000 })
  console.log(`notices painted ${Date.now() - killedAt} ms after the kill`)
  await expect(tabs[2]!.getByTestId('notices-error')).toHaveCount(0)
  // the new worker's push socket: a push after the kill reaches the tabs on the home
  await expect.poll(() => proxy.pushStats().open, { timeout: 10_000 }).toBe(noSharedWorker ? tabs.length : 1)
  await ops('push', world.accounts.demo.phone, 'sendCouponMsg', JSON.stringify({ content: '您收到一张优惠券' }))
  for (const page of tabs.slice(0, 2)) await expect.poll(() => couponCount(page)).toBe(before + 1)
  for (const page of tabs.slice(0, 2)) await expect(page.getByTestId('device-item').first()).toBeVisible()
})

test('a read in flight across the kill is answered by the new worker as if nothing happened', async ({ browser, context }) => {
  const [page] = await loggedInTabs(context, 1, world.accounts.demo, proxy.appUrl)
  const NOTICES = catalogue.noticeAll.path
  proxy.rewrite(NOTICES, { delayMs: 3_000 })
  const before = proxy.exchanges(NOTICES).length
  await page.getByTestId('home-notifications').click()
  await expect.poll(() => proxy.exchanges(NOTICES).length).toBeGreaterThan(before)
  await killCore(browser)
  proxy.clear(NOTICES)
  await expect(page.getByTestId('notices-list')).toBeVisible({ timeout: 8_000 })
  await expect(page.getByTestId('notices-error')).toHaveCount(0)
})

test('a change in flight across the kill is sent again with its key and answered with the server\'s one outcome (issue 40)', async ({ browser, context }) => {
  const [page] = await loggedInTabs(context, 1, world.accounts.demo, proxy.appUrl)
  const REBOOT = catalogue.rebootDevice.path
  // the server reboots at once; its answer is held until after the kill
  proxy.rewrite(REBOOT, { holdAnswerMs: 4_000 })
  const before = proxy.exchanges(REBOOT).length
  await page.getByTestId('device-action-reboot').first().click()
  await confirmDialog(page)
  await expect.poll(() => proxy.exchanges(REBOOT).length).toBe(before + 1)
  await killCore(browser)
  proxy.clear(REBOOT)
  // the new worker sends it again with the same key: the server answers what it stored, reboots nothing twice
  // (the new core's log and the tab's replay: one copy when the replay joins the log's, two when it came after)
  await expect.poll(() => proxy.exchanges(REBOOT).length, { timeout: 8_000 }).toBeGreaterThanOrEqual(before + 2)
  const copies = proxy.exchanges(REBOOT).slice(before)
  await expect.poll(() => copies.every((c) => c.body.length > 0), { timeout: 8_000 }).toBe(true)
  for (const again of copies.slice(1)) expect(JSON.parse(again.body)).toEqual(JSON.parse(copies[0]!.body))
  await expect(page.getByText(zhCN.app.outcomeUnknown)).toHaveCount(0)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
})

test('killed during a sign-in: the sign-in is sent again on the new worker, and a visitor\'s home tab shows the list too', async ({ browser, context }) => {
  const LOGIN = catalogue.login.path
  const page = await context.newPage()
  const other = await context.newPage()
  await other.goto(proxy.appUrl('/'))
  proxy.rewrite(LOGIN, { delayMs: 3_000 })
  // the proxy's log is the file's: earlier tests signed in through it too
  const before = proxy.exchanges(LOGIN).length
  await page.goto(proxy.appUrl('/pages/login/login'))
  await page.getByTestId('login-phone').fill(world.accounts.demo.phone)
  await page.getByTestId('login-password').fill(world.accounts.demo.password)
  await page.getByTestId('login-submit').click()
  await expect.poll(() => proxy.exchanges(LOGIN).length).toBe(before + 1)
  await killCore(browser)
  proxy.clear(LOGIN)
  await expect(page.getByTestId('device-item').first()).toBeVisible({ timeout: 10_000 })
  // without SharedWorker the other tab has a core of its own, which learns of a sign-in when the tab loads again
  // (decisions.md: the fallback shares storage, not a live session)
  if (noSharedWorker) await other.reload()
  await expect(other.getByTestId('device-item').first()).toBeVisible({ timeout: 10_000 })
  // each of the killed cores that was signing in sends it again: one in the shared core, the signing tab's without it
  expect(proxy.exchanges(LOGIN)).toHaveLength(before + 2)
})
