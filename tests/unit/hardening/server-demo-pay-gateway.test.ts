// Issue 22 finding 12: the reference pay gateway (one tap settles an order, no money) runs only in demo mode: off unless
// asked for, on by default only for the PGlite setup `npm start` gives, and the server says at start whether it is on.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { demoPayGatewayFrom, H5_UNAVAILABLE } from '../../../server/pay/h5-gateway.ts'
import type { Meal } from '../../../worker/protocol/pay.ts'
import { startServerProcess } from '../../support/server-process.ts'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'
import { testDataDir } from '../../support/test-database.ts'

vi.setConfig({ testTimeout: 240_000 })

describe('DEMO_PAY_GATEWAY', () => {
  it('defaults to on with PGlite and off with PostgreSQL; explicit values win; anything else is refused', () => {
    expect(demoPayGatewayFrom({}).on).toBe(true)
    expect(demoPayGatewayFrom({ DATABASE_URL: 'postgres://db/app' }).on).toBe(false)
    expect(demoPayGatewayFrom({ DATABASE_URL: 'postgres://db/app', DEMO_PAY_GATEWAY: 'on' }).on).toBe(true)
    expect(demoPayGatewayFrom({ DEMO_PAY_GATEWAY: 'off' }).on).toBe(false)
    expect(demoPayGatewayFrom({ DEMO_PAY_GATEWAY: '0' }).on).toBe(false)
    expect(() => demoPayGatewayFrom({ DEMO_PAY_GATEWAY: 'yes please' })).toThrow(/DEMO_PAY_GATEWAY/)
  })

  it('says clearly whether it is on, and warns a PostgreSQL deployment that has it on', () => {
    expect(demoPayGatewayFrom({}).line).toMatch(/^演示支付网关：已开启（支付宝 H5、支付宝扫码与微信支付/)
    expect(demoPayGatewayFrom({ DEMO_PAY_GATEWAY: 'off' }).line).toMatch(/^演示支付网关：已关闭（支付宝 H5、支付宝扫码与微信支付不可用/)
    expect(demoPayGatewayFrom({ DATABASE_URL: 'postgres://db/app' }).line).toMatch(/^演示支付网关：已关闭.*PostgreSQL 部署默认关闭/)
    expect(demoPayGatewayFrom({ DATABASE_URL: 'postgres://db/app', DEMO_PAY_GATEWAY: 'on' }).line).toMatch(/^演示支付网关：已开启.*PostgreSQL 部署，请勿对真实用户开放/)
  })

  it('server/main.ts prints the line at start', async () => {
    const dataDir = testDataDir('cloud-phone-demo-pay-')
    const p = await startServerProcess({ DATA_DIR: dataDir, DEMO_PAY_GATEWAY: 'off' })
    try {
      await p.printed('演示账号')
      expect(p.output()).toContain('演示支付网关：已关闭')
    } finally {
      await p.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('a server without demo mode', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ demoPayGateway: false })
  }, 180_000)
  afterAll(() => t?.stop())

  it('starts no H5 or Alipay QR payment and serves no gateway page; the order stays unpaid', async () => {
    const base = t.server.url
    const { token } = await loginToken(base, '13700137000')
    const meal = (await api<{ mealList: Meal[] }>(base, 'GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=STANDARD', { token })).body.data.mealList.find((m) => m.day === 1)!
    const { myOrderNum } = (await api<{ myOrderNum: string }>(base, 'POST', '/api/pay/v1/order/create', {
      token, body: { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 1 },
    })).body.data
    for (const path of [`/api/pay/v1/alipay/h5/spend?myOrderNum=${myOrderNum}`, `/api/pay/v1/wxPay/h5/spend?myOrderNum=${myOrderNum}`]) {
      expect((await api(base, 'GET', path, { token })).body).toMatchObject({ status: 1003, msg: H5_UNAVAILABLE })
    }
    // no provider is connected: a QR would lead nowhere, so none is made
    const qr = await api(base, 'POST', '/api/pay/v1/alipay/precreate', { token, body: { myOrderNum } })
    expect(qr.body).toMatchObject({ status: 1003, msg: H5_UNAVAILABLE })
    const page = await fetch(`${base}/api/pay/reference-gateway/${'A'.repeat(32)}`)
    expect(page.status).toBe(404)
    expect(await page.text()).not.toContain('模拟')
    expect((await api<number>(base, 'GET', `/api/pay/v1/alipay/h5/spend/getPayStatus?myOrderNum=${myOrderNum}`, { token })).body.data).toBe(0)
  })
})
