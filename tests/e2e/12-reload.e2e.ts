// Reload in 300 ms (issue 12): index.html starts the core's worker and takes the tab's lock before the entry loads, and
// a reload with a stored session paints the device list from the persisted snapshot, without waiting on the network
// and without a layout shift when the fresh list lands.
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { startTestProxy, type TestProxy } from '../support/test-proxy.ts'
import { test, expect } from './fixtures.ts'
import { connectionsOf, layoutShifts, login, newWorld, screenshot, watchLayoutShifts, type FixtureWorld } from './helpers.ts'

const DEVICE_LIST = catalogue.getDeviceList.path
const BATCH_SWITCH = catalogue.getPhoneMealBatchSwitch.path

let world: FixtureWorld
let proxy: TestProxy
test.beforeAll(async () => {
  world = await newWorld()
  proxy = await startTestProxy(process.env.E2E_BASE_URL!)
})
test.afterAll(async () => { await proxy.close() })

test('a reload paints the stored device list while the device list request is still on its way, and nothing shifts when it lands', async ({ page, context }) => {
  const user = world.accounts.demo
  await watchLayoutShifts(context)
  await login(page, user, proxy.appUrl)
  await expect(page.getByTestId('device-item')).toHaveCount(5)
  // the core persists its projection after 40 ms of quiet (worker/events/snapshot-writer.ts): stored long before this
  await expect.poll(() => connectionsOf(user.phone)).toBe(1)

  proxy.rewrite(DEVICE_LIST, { delayMs: 4_000 })
  // the batch switch (a home shortcut's condition) answers after the paint too, as it does on a slow phone
  proxy.rewrite(BATCH_SWITCH, { delayMs: 1_500 })
  const before = proxy.exchanges(DEVICE_LIST).length
  await page.reload()
  await expect(page.getByTestId('device-item')).toHaveCount(5)
  const held = proxy.exchanges(DEVICE_LIST).slice(before)
  expect(held.length).toBeGreaterThan(0)
  expect(held.every((e) => e.answeredAt === -1)).toBe(true)
  const storedAt = await page.getByTestId('device-list').getAttribute('data-fetched-at')
  await screenshot(page, '12-reload-from-snapshot')

  await expect.poll(() => proxy.exchanges(DEVICE_LIST).slice(before).every((e) => e.answeredAt > 0), { timeout: 15_000 }).toBe(true)
  await expect(page.getByTestId('device-item')).toHaveCount(5)
  // the answer has reached the tab (the list's fetch time changes) before the shifts are read
  await expect.poll(() => page.getByTestId('device-list').getAttribute('data-fetched-at')).not.toBe(storedAt)
  await expect(page.getByTestId('shortcut-batchRenewal')).toBeVisible()
  expect(await layoutShifts(page)).toBe(0)
  await screenshot(page, '12-reload-settled')
  proxy.clear()
})

test('the page uses the worker and the tab lock index.html started: one core, one push connection', async ({ page }) => {
  const user = world.accounts.member
  await login(page, user, proxy.appUrl)
  await expect(page.getByTestId('home-page')).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('home-page')).toBeVisible()
  // index.html's boot was taken by connectCore (nothing left behind), and it had started the worker without failing
  expect(await page.evaluate(() => (globalThis as { __earlyBoot?: unknown }).__earlyBoot)).toEqual({ tab: null, worker: null, failed: false })
  await expect.poll(() => connectionsOf(user.phone)).toBe(1)
})
