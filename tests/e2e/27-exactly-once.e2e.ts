// Issue 40 item 2, end to end on the built app: a purchase is applied once when its answers are lost after the server
// applied them (cut at the proxy), and when the core's SharedWorker is killed with the order in flight. The customer
// sees the real outcome (the paid order), never 服务器错误 or 操作结果未知, and the server holds one order, one device.
import type { Browser, Page } from '@playwright/test'
import { test, expect } from './fixtures.ts'
import { killCores, loggedInTabs, newWorld, ops, type FixtureWorld } from './helpers.ts'
import { startTestProxy, type TestProxy } from '../support/test-proxy.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { zhCN } from '../../src/i18n/zh-CN.ts'
import { core } from '../../worker/texts.ts'
import { login } from './helpers.ts'

let world: FixtureWorld
let proxy: TestProxy
test.beforeAll(async () => { proxy = await startTestProxy(process.env.E2E_BASE_URL!) })
test.beforeEach(async () => { world = await newWorld() })
test.afterAll(async () => proxy.close())
test.afterEach(() => proxy.clear())

const ORDER = catalogue.orderCreate.path
const SPEND = catalogue.starCoinsSpend.path

async function homeCount(page: Page): Promise<number> {
  await page.goto(proxy.appUrl('/'))
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  return page.getByTestId('device-item').count()
}

/** A day card paid with star coins, up to the confirmation. */
async function buyDayCard(page: Page): Promise<void> {
  await page.goto(proxy.appUrl('/package/purchase/purchase?phoneType=STANDARD&androidVersion=12'))
  await expect(page.getByTestId('buy-android-12')).toHaveAttribute('aria-pressed', 'true')
  await page.locator('[data-testid="buy-meal"][data-day="1"]').click()
  await page.getByTestId('buy-method-starCoin').click()
  await page.getByTestId('buy-submit').click()
  await page.getByRole('dialog').getByRole('button', { name: '确认支付', exact: true }).click()
}

async function killCore(browser: Browser): Promise<void> {
  expect(await killCores(browser, new URL(proxy.appUrl('/')).origin)).toBeGreaterThan(0)
}

const noUncertainty = async (page: Page) => {
  await expect(page.getByText(core.serverError)).toHaveCount(0)
  await expect(page.getByText(zhCN.app.outcomeUnknown)).toHaveCount(0)
}

test('an order and its payment whose answers are cut after the server applied them: paid once, one device', async ({ page }) => {
  await login(page, world.accounts.partner, proxy.appUrl)
  const before = await homeCount(page)
  const orders = proxy.exchanges(ORDER).length
  const spends = proxy.exchanges(SPEND).length
  proxy.rewrite(ORDER, { cutAnswer: true })
  proxy.rewrite(SPEND, { cutAnswer: true })
  await buyDayCard(page)
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true', { timeout: 15_000 })
  await noUncertainty(page)
  // each was sent twice (the first answer lost), the second answered with what the first one did
  expect(proxy.exchanges(ORDER)).toHaveLength(orders + 2)
  expect(proxy.exchanges(SPEND)).toHaveLength(spends + 2)
  const [cut, resent] = proxy.exchanges(ORDER).slice(orders)
  expect(JSON.parse(resent!.body)).toEqual(JSON.parse(cut!.body))
  expect(await homeCount(page)).toBe(before + 1)
})

test('the core killed with the order in flight: the new core finishes it with the same key, every tab shows one new device', async ({ browser, context }) => {
  const page = await context.newPage()
  const other = await context.newPage()
  await login(page, world.accounts.partner, proxy.appUrl)
  const before = await homeCount(page)
  await other.goto(proxy.appUrl('/'))
  await expect(other.getByTestId('device-item')).toHaveCount(before)
  const orders = proxy.exchanges(ORDER).length
  // the server applies the order at once; its answer is still on the way when the core dies
  proxy.rewrite(ORDER, { holdAnswerMs: 3_000 })
  await buyDayCard(page)
  await expect.poll(() => proxy.exchanges(ORDER).length).toBe(orders + 1)
  await killCore(browser)
  proxy.clear(ORDER)
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true', { timeout: 15_000 })
  await noUncertainty(page)
  const [first, again] = proxy.exchanges(ORDER).slice(orders)
  expect(again).toBeDefined()
  await expect.poll(() => again!.body.length > 0).toBe(true)
  await expect.poll(() => first!.body.length > 0, { timeout: 5_000 }).toBe(true)
  expect(JSON.parse(again!.body)).toEqual(JSON.parse(first!.body))
  expect(await homeCount(page)).toBe(before + 1)
  await other.reload()
  await expect(other.getByTestId('device-item')).toHaveCount(before + 1)
})

test('a frozen tab holds nothing up: the other tab buys and gets pushes, and the frozen one catches up when it thaws', async ({ context }) => {
  const [active, frozen] = await loggedInTabs(context, 2, world.accounts.partner, proxy.appUrl)
  const coupons = async (page: Page) => Number(await page.getByTestId('counter-coupon').getAttribute('data-count'))
  const before = await coupons(active!)
  const devices = await active!.getByTestId('device-item').count()
  const cdp = await context.newCDPSession(frozen!)
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' })
  try {
    for (let i = 0; i < 3; i++) await ops('push', world.accounts.partner.phone, 'sendCouponMsg', JSON.stringify({ content: `冻结期间的优惠券${i}` }))
    await expect.poll(() => coupons(active!)).toBe(before + 3)
    await buyDayCard(active!)
    await expect(active!.getByTestId('order-result')).toHaveAttribute('data-ok', 'true')
  } finally {
    await cdp.send('Page.setWebLifecycleState', { state: 'active' })
  }
  await expect.poll(() => coupons(frozen!)).toBe(before + 3)
  await frozen!.reload()
  await expect(frozen!.getByTestId('device-item')).toHaveCount(devices + 1)
})
