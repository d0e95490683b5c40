// Issue 9, end to end: two server instances on one PostgreSQL (a throwaway cluster of this file) behind a small
// round-robin balancer, each request to the next instance. The app logs in, lists devices, pays a purchase, and gets a
// push fired at the instance that does not hold its socket.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPostgres, type PostgresCluster } from '../support/postgres.ts'
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts'
import { startServerProcess, type ServerProcess } from '../support/server-process.ts'
import { test, expect, watchServerOutput } from './fixtures.ts'
import { login, screenshot } from './helpers.ts'

const OPS_TOKEN = 'two-instances-e2e'
/** a seeded demo account of this file's own database */
const USER = { phone: '13700137000', password: 'Demo@2026' }
let cluster: PostgresCluster
let proxy: RoundRobinProxy
const instances: ServerProcess[] = []
const dataDirs: string[] = []

const appAt = (hash: string): string => `${proxy.url}/cloud/phone/web/#${hash}`

/** An operator call straight to one instance (loopback, with the shared token). */
const opsAt = async <A>(instance: ServerProcess, method: 'GET' | 'POST', path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: { 'X-Ops-Token': OPS_TOKEN, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const parsed = (await response.json()) as { status: number; msg: string; data: A }
  if (parsed.status !== 0) throw new Error(parsed.msg)
  return parsed.data
}

interface Report {
  instances: Array<{ url: string; users: Array<{ phone: string; live: number }> }>
}

/** The instance holding the user's one socket, and the other one. */
const holderOf = async (phone: string): Promise<{ holder: ServerProcess; other: ServerProcess }> => {
  const report = await opsAt<Report>(instances[0]!, 'GET', '/__ops/connections')
  const held = report.instances.find((i) => i.users.some((u) => u.phone === phone && u.live > 0))!
  const holder = instances.find((p) => p.url === held.url)!
  return { holder, other: instances.find((p) => p !== holder)! }
}

test.beforeAll(async () => {
  test.setTimeout(240_000)
  cluster = await startPostgres()
  const databaseUrl = await cluster.createDatabase('e2e_two')
  for (let i = 0; i < 2; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'cloud-phone-e2e-instance-'))
    dataDirs.push(dataDir)
    instances.push(await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, OPS_TOKEN, TRUSTED_PROXIES: '127.0.0.1' }, ['--serve-app']))
    watchServerOutput(instances[i]!.output)
  }
  proxy = await startRoundRobinProxy(instances.map((p) => p.url))
})

test.afterAll(async () => {
  await proxy?.close()
  await Promise.all(instances.map((p) => p.stop()))
  await cluster?.stop()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

test('login, device list, a paid purchase and a push from the other instance, through a round-robin balancer', async ({ page }) => {
  await login(page, USER, appAt)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  const before = await page.getByTestId('device-item').count()
  // both instances answered the app's calls
  await expect.poll(() => new Set(proxy.forwarded.filter((f) => f.path.startsWith('/api/')).map((f) => f.upstream)).size).toBe(2)
  await screenshot(page, 'two-instances-home')

  // an Alipay order, paid by the provider through one instance, polled by the app through both
  await page.goto(appAt('/package/purchase/purchase?phoneType=STANDARD&androidVersion=12'))
  await page.locator('[data-testid="buy-meal"][data-day="1"]').click()
  await page.getByTestId('buy-submit').click()
  await page.getByRole('dialog').getByRole('button', { name: '确认支付', exact: true }).click()
  const myOrderNum = (await page.getByTestId('pay-order-num').textContent())!.trim()
  await opsAt(instances[1]!, 'POST', '/__ops/pay', { myOrderNum, result: 'success' })
  await expect(page.getByTestId('order-result')).toHaveAttribute('data-ok', 'true')
  await page.getByTestId('order-result-home').click()
  await expect(page.getByTestId('device-item')).toHaveCount(before + 1)

  // the push is fired at the instance that does not hold the app's socket
  await expect.poll(async () => (await holderOf(USER.phone).catch(() => null)) !== null, { timeout: 15_000 }).toBe(true)
  const { other } = await holderOf(USER.phone)
  await expect(page.getByTestId('announcement-bar')).toHaveCount(0)
  const { delivered } = await opsAt<{ delivered: number }>(other, 'POST', '/__ops/push', {
    phone: USER.phone, message: { type: 'systemAnnouncementMsg', data: { content: '来自另一个实例的公告' } },
  })
  expect(delivered).toBe(1)
  await expect(page.getByTestId('announcement-bar')).toBeVisible()
  await screenshot(page, 'two-instances-push')
})
