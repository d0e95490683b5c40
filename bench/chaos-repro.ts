// `npx tsx bench/chaos-repro.ts`: the divergence the chaos part found (bench/parts/chaos.ts), alone. One tab of the
// core; its push socket dropped at the proxy; while it is down (the core waits RECONNECT_INTERVAL_MS to reconnect) a
// renewal is ordered and paid through the core (told ok); then, once the socket is open again and nothing else is
// written, does the tab's device list show the renewal? Prints the tab's and the server's minutes left. The tab does
// not pull the list after paying, standing for a change the core did not make itself (another phone of the account,
// the payment gateway's callback, the operator): the product's own result screens pull after their orders
// (src/features/pay/use-finished-order.ts); only the refreshCloudPhoneList push tells the core of the others.
import { launchChromium } from './lib/browser.ts'
import { startBenchPages } from './lib/bench-pages.ts'
import { readRecords, startChaosWorld } from './lib/chaos-world.ts'
import { openChaosTab, viewOf } from './lib/chaos-faults.ts'
import { control, openTab } from './lib/tabs.ts'
import { waitFor } from './lib/product-tabs.ts'

const DEVICE = 880001
const since = new Date()
const [browser, pages] = await Promise.all([launchChromium(), startBenchPages()])
const world = await startChaosWorld(pages.outDir)
try {
  await world.query(`insert into account_star_coin_records (user_id, kind, amount, description) values ((select id from users where phone = '13800138000'), 1, 100000, 'repro')`)
  const context = await browser.newContext()
  const url = `${world.proxy.origin}${pages.base}bench/pages/dispatch.html?mode=product&worker=bench-chaos&chaos=1`
  const tab = await openTab(context, url)
  await control(tab, 'login')
  await waitFor('push open', async () => (await viewOf(tab))?.push === 'open', 60_000)
  await openChaosTab(context, url).then((p) => p.close())
  const minutes = async () => (await viewOf(tab))!.devices.find((d) => d.userCardId === DEVICE)!.validTime
  const server = async () => {
    const r = await readRecords(world, since)
    const d = r.devices.find((x) => x.user_card_id === DEVICE)!
    return Math.round((d.expires_ms - r.nowMs) / 60_000)
  }
  console.log(`before: tab ${await minutes()} min left, server ${await server()}`)
  const opened = world.proxy.pushStats().opened
  world.proxy.drop()
  await new Promise((r) => setTimeout(r, 500))
  const meal = (await world.query<{ id: number }>(`select id from meals where phone_type = 'STANDARD' and support order by day limit 1`))[0]!.id
  const order = (await control(tab, 'call', 'orderCreate', { buyType: 2, id: meal, phoneType: 'STANDARD', quantity: 1, userCardIdStr: String(DEVICE) })) as { ok: boolean; data: { myOrderNum: string } }
  const paid = (await control(tab, 'call', 'starCoinsSpend', { myOrderNum: order.data.myOrderNum })) as { ok: boolean }
  console.log(`renewal ordered ${order.ok}, paid ${paid.ok}, while the push socket is down: tab ${await minutes()} min left, server ${await server()}`)
  await waitFor('the push socket to reopen', async () => world.proxy.pushStats().opened > opened && world.proxy.pushStats().open >= 1, 60_000)
  const t = Date.now()
  await new Promise((r) => setTimeout(r, 10_000))
  console.log(`${Date.now() - t} ms after the socket reopened: tab ${await minutes()} min left, server ${await server()}`)
} finally {
  await world.close()
  await Promise.allSettled([browser.close(), pages.close()])
}
