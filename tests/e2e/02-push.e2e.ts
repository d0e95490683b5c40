// Issue 3, end to end: each of the seven push types fired by the operator, its visible effect checked in two tabs;
// maintenance switched on reaches every tab as one modal. A refreshCloudPhoneList that arrives while the list is
// loading loads it again (issue 24).
import { test, expect, skipPopUpAds } from './fixtures.ts'
import { appUrl, confirmDialog, loggedInTabs, newWorld, ops, screenshot, viewerUrl, withCoreTestConfig, type FixtureWorld } from './helpers.ts'
import { startTestProxy } from '../support/test-proxy.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'

const DISK = '云手机-01'
let world: FixtureWorld
let DEMO: FixtureWorld['accounts']['demo']
let CARD: number
let OTHER_CARD: number
test.beforeAll(async () => {
  world = await newWorld()
  DEMO = world.accounts.demo
  CARD = world.cards[DISK]!
  OTHER_CARD = world.cards['云手机-02']!
})

test('changeCard: the viewer tab on that card is told and sent home; a home tab gets the toast and stays', async ({ context }) => {
  const [home, viewer] = await loggedInTabs(context, 2, DEMO)
  await viewer.goto(viewerUrl(CARD))
  await expect(viewer.getByTestId('viewer')).toHaveAttribute('data-phase', 'live')

  await ops('push', DEMO.phone, 'changeCard', JSON.stringify({ userCardId: CARD }))
  for (const page of [home, viewer]) await expect(page.getByText('云手机已切换，请重新进入')).toBeVisible()
  await expect(viewer).toHaveURL(/#\/(pages\/index\/index)?$/)
  await expect(viewer.getByTestId('device-list')).toBeVisible()
  await expect(home.getByTestId('device-list')).toBeVisible()
})

test('changeCard for another card only clears the viewer tab state, it stays in the viewer', async ({ context }) => {
  const [, viewer] = await loggedInTabs(context, 2, DEMO)
  await viewer.goto(viewerUrl(CARD))
  await expect(viewer.getByTestId('viewer')).toHaveAttribute('data-phase', 'live')
  await ops('push', DEMO.phone, 'changeCard', JSON.stringify({ userCardId: OTHER_CARD }))
  await viewer.waitForTimeout(2_500)
  await expect(viewer).toHaveURL(/cloudPhoneView/)
  await expect(viewer.getByText('云手机已切换，请重新进入')).toHaveCount(0)
})

test('sendActivationCode and sendCouponMsg raise the counters in both tabs', async ({ context }) => {
  const tabs = await loggedInTabs(context, 2, DEMO)
  await ops('push', DEMO.phone, 'sendActivationCode', JSON.stringify({ content: '您收到一个激活码' }))
  await ops('push', DEMO.phone, 'sendCouponMsg', JSON.stringify({ content: '您收到一张优惠券' }))
  for (const page of tabs) {
    await expect(page.getByTestId('counter-activation')).toHaveAttribute('data-count', '1')
    await expect(page.getByTestId('counter-coupon')).toHaveAttribute('data-count', '1')
    await expect(page.getByTestId('counter-my')).toHaveAttribute('data-count', '2')
  }
  // persisted by the core: a reload still shows them
  await tabs[1].reload()
  await expect(tabs[1].getByTestId('counter-my')).toHaveAttribute('data-count', '2')
})

test('systemAnnouncementMsg shows the announcement bar in both tabs', async ({ context }) => {
  const tabs = await loggedInTabs(context, 2, DEMO)
  for (const page of tabs) await expect(page.getByTestId('announcement-bar')).toHaveCount(0)
  await ops('push', DEMO.phone, 'systemAnnouncementMsg', JSON.stringify({ content: '系统公告' }))
  for (const page of tabs) await expect(page.getByTestId('announcement-bar')).toBeVisible()
  await screenshot(tabs[0], 'home-announcement')
})

test('removeAuth sends the viewer tab of that card home with the notice naming the disk; home tab gets it too', async ({ context }) => {
  const [home, viewer] = await loggedInTabs(context, 2, DEMO)
  await viewer.goto(viewerUrl(CARD))
  await expect(viewer.getByTestId('viewer')).toHaveAttribute('data-phase', 'live')
  await ops('push', DEMO.phone, 'removeAuth', JSON.stringify({ userCardId: CARD, diskName: DISK }))
  for (const page of [viewer, home]) {
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('授权取消通知')
    await expect(dialog).toContainText(`云手机「${DISK}」的授权已被取消，已为您退出该云手机`)
  }
  await expect(viewer).toHaveURL(/#\/(pages\/index\/index)?$/)
  await screenshot(viewer, 'remove-auth')
  for (const page of [viewer, home]) await confirmDialog(page)
})

test('removeAuth is ignored by a viewer tab showing a different card', async ({ context }) => {
  const [, viewer] = await loggedInTabs(context, 2, DEMO)
  await viewer.goto(viewerUrl(CARD))
  await expect(viewer.getByTestId('viewer')).toHaveAttribute('data-phase', 'live')
  await ops('push', DEMO.phone, 'removeAuth', JSON.stringify({ userCardId: OTHER_CARD, diskName: '云手机-02' }))
  await viewer.waitForTimeout(1_500)
  await expect(viewer).toHaveURL(/cloudPhoneView/)
  await expect(viewer.getByRole('dialog')).toHaveCount(0)
})

test('maintenance switched on shows one 提示 modal in every tab, visitors included', async ({ browser }) => {
  const member = await browser.newContext()
  await skipPopUpAds(member)
  await withCoreTestConfig(member, { maintenancePollMs: 1_000 })
  const visitor = await browser.newContext()
  await skipPopUpAds(visitor)
  await withCoreTestConfig(visitor, { maintenancePollMs: 1_000 })
  try {
    const tabs = await loggedInTabs(member, 2, DEMO)
    const guest = await visitor.newPage()
    await guest.goto(appUrl('/pages/login/login'))
    await ops('maintenance', 'on', '系统升级维护中', '2026-11-23 06:00')
    for (const page of [...tabs, guest]) {
      const dialog = page.getByRole('dialog')
      await expect(dialog).toContainText('提示')
      await expect(dialog).toContainText('系统升级维护中')
      await expect(dialog).toContainText('预计：2026-11-23 06:00完成')
      await expect(dialog.getByText('确定')).toBeVisible()
    }
    await screenshot(tabs[0], 'maintenance')
    // later polls with the same content do not stack a second modal
    await tabs[0].waitForTimeout(2_500)
    await expect(tabs[0].getByRole('dialog')).toHaveCount(1)
    // confirming exits a logged-in tab; the visitor on login just closes it
    await confirmDialog(tabs[0])
    await expect(tabs[0]).toHaveURL(/#\/pages\/login\/login/)
    await confirmDialog(guest)
    await expect(guest).toHaveURL(/#\/pages\/login\/login/)
    await expect(guest.getByRole('dialog')).toHaveCount(0)
  } finally {
    await ops('maintenance', 'off')
    await member.close()
    await visitor.close()
  }
})

test('refreshCloudPhoneList during a device-list request that left before the change ends with the list after it', async ({ context }) => {
  const proxy = await startTestProxy(process.env.E2E_BASE_URL!)
  try {
    const LIST = catalogue.getDeviceList.path
    const [page] = await loggedInTabs(context, 1, DEMO, proxy.appUrl)
    await expect(page.getByTestId('device-item')).toHaveCount(5)
    const now = JSON.parse(proxy.exchanges(LIST).at(-1)!.body) as { data: Array<{ userCardId: number; diskName: string }> }
    // what the server said before the change (the device's old name), still on its way when the change is pushed
    const before = now.data.map((d) => (d.userCardId === CARD ? { ...d, diskName: '改名之前' } : d))
    proxy.rewrite(LIST, { data: before, answerAfterMs: 2_500 })
    const sent = proxy.exchanges(LIST).length
    await page.getByTestId('shortcut-orders').click()
    // the orders screen must have replaced the home (its chunk may still be loading): a goBack before that leaves the
    // home mounted, and nothing asks for the list again
    await expect(page.getByTestId('orders-tab-all')).toBeVisible()
    await expect(page.getByTestId('device-item')).toHaveCount(0)
    await page.goBack()
    await expect.poll(() => proxy.exchanges(LIST).length).toBe(sent + 1)
    proxy.clear(LIST)
    // the push the change sends (injected on the app's socket: the operator command takes longer than the hold)
    expect(proxy.send(JSON.stringify({ type: 'refreshCloudPhoneList', data: null }))).toBe(1)
    expect(proxy.exchanges(LIST).at(-1)!.answeredAt).toBe(-1)
    // the held answer lands (the old name may show a moment), then the load the push asked for
    await expect.poll(() => proxy.exchanges(LIST).slice(sent).every((e) => e.answeredAt > 0) && proxy.exchanges(LIST).length, { timeout: 15_000 })
      .toBe(sent + 2)
    const row = page.locator(`[data-testid="device-item"][data-user-card-id="${CARD}"]`)
    await expect(row.getByTestId('device-name')).toHaveText(DISK)
    await page.waitForTimeout(500)
    await expect(row.getByTestId('device-name')).toHaveText(DISK)
  } finally {
    await proxy.close()
  }
})
