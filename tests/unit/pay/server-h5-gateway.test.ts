// Alipay H5 / WeChat H5 on the reference server: the spend call returns the simulated gateway page, the page
// settles the order once and sends the browser back to the app's payment confirmation; the payment switch reports
// the caller's OS; the mini-program payment needs an openId.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { H5Pay } from '../../../worker/protocol/pay-h5.ts'
import type { Meal, Order, PaySwitch } from '../../../worker/protocol/pay.ts'
import { opsPaySwitch } from '../../../server/ops.ts'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer
let base: string
let token: string
let otherToken: string
let dayCard: Meal

const call = async <A>(method: 'GET' | 'POST', path: string, body?: unknown, as = token) => (await api<A>(base, method, path, { token: as, body })).body
const newOrder = async () =>
  (await call<{ myOrderNum: string }>('POST', '/api/pay/v1/order/create', { buyType: 1, id: dayCard.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 1 })).data.myOrderNum
const payStatus = async (n: string) => (await call<number>('GET', `/api/pay/v1/alipay/h5/spend/getPayStatus?myOrderNum=${n}`)).data
const detail = async (n: string) => (await call<Order>('GET', `/api/pay/v1/order/info/detail?myOrderNum=${n}`)).data
const submit = (payUrl: string, action: string) =>
  fetch(base + payUrl, { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' })

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  token = (await loginToken(base, '13700137000')).token
  otherToken = (await loginToken(base, '13500135000')).token
  dayCard = (await call<{ mealList: Meal[] }>('GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=STANDARD')).data.mealList.find((m) => m.day === 1)!
}, 60_000)
afterAll(() => t?.stop())

describe('H5 payment through the reference gateway', () => {
  it('Alipay H5 returns the labelled gateway page; confirming pays the order and returns to the status page', async () => {
    const myOrderNum = await newOrder()
    const spend = await call<H5Pay>('GET', `/api/pay/v1/alipay/h5/spend?myOrderNum=${myOrderNum}`)
    expect(spend.status).toBe(0)
    expect(spend.data.payUrl).toMatch(/^\/api\/pay\/reference-gateway\/[A-Za-z0-9_-]{32}$/)
    expect(await payStatus(myOrderNum)).toBe(3)

    const page = await fetch(base + spend.data.payUrl)
    const text = await page.text()
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(text).toContain('参考服务器模拟支付网关')
    expect(text).toContain('支付宝收银台（模拟）')
    expect(text).toContain(myOrderNum)

    const done = await submit(spend.data.payUrl, 'confirm')
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(`/cloud/phone/web/#/pages/order/status?myOrderNum=${myOrderNum}`)
    expect(await payStatus(myOrderNum)).toBe(1)
    expect((await detail(myOrderNum)).payType).toBe(9)
  })

  it('WeChat H5 cancelled at the gateway fails the order; the ticket cannot be spent again', async () => {
    const myOrderNum = await newOrder()
    const spend = await call<H5Pay>('GET', `/api/pay/v1/wxPay/h5/spend?myOrderNum=${myOrderNum}`)
    expect(await (await fetch(base + spend.data.payUrl)).text()).toContain('微信支付收银台（模拟）')
    expect((await submit(spend.data.payUrl, 'cancel')).status).toBe(303)
    expect(await payStatus(myOrderNum)).toBe(2)
    expect((await detail(myOrderNum)).finishPay).toBe(3)

    expect((await submit(spend.data.payUrl, 'confirm')).status).toBe(303)
    expect(await payStatus(myOrderNum)).toBe(2)
    expect(await (await fetch(base + spend.data.payUrl)).text()).toContain('订单已处理')
  })

  it('escapes order text on the page, refuses unknown tickets and orders of other users or already paid', async () => {
    const unknown = await fetch(`${base}/api/pay/reference-gateway/${'a'.repeat(32)}`)
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('支付链接无效')
    expect((await fetch(`${base}/api/pay/reference-gateway/<script>`)).status).toBe(404)

    const myOrderNum = await newOrder()
    const foreign = await call('GET', `/api/pay/v1/alipay/h5/spend?myOrderNum=${myOrderNum}`, undefined, otherToken)
    expect(foreign.status).not.toBe(0)
    expect(foreign.msg).toBe('订单不存在')

    const spend = await call<H5Pay>('GET', `/api/pay/v1/alipay/h5/spend?myOrderNum=${myOrderNum}`)
    expect((await submit(spend.data.payUrl, 'steal')).status).toBe(404)
    await submit(spend.data.payUrl, 'confirm')
    const again = await call('GET', `/api/pay/v1/wxPay/h5/spend?myOrderNum=${myOrderNum}`)
    expect(again.status).not.toBe(0)
    expect(again.msg).toBe('订单已关闭或已支付')
  })

  it('the Alipay QR is the order\'s gateway page, absolute; opened without the app\'s token it pays the order and says so there', async () => {
    const myOrderNum = await newOrder()
    const precreate = async () => (await call<{ qrCode: string }>('POST', '/api/pay/v1/alipay/precreate', { myOrderNum })).data.qrCode
    const qrCode = await precreate()
    expect(qrCode).toMatch(new RegExp(`^${base}/api/pay/reference-gateway/[A-Za-z0-9_-]{32}$`))
    // the pay-order page opened again shows the same code while the order is open
    expect(await precreate()).toBe(qrCode)
    expect(await payStatus(myOrderNum)).toBe(3)

    const page = await fetch(qrCode)
    const text = await page.text()
    expect(text).toContain('支付宝收银台（模拟）')
    expect(text).toContain(myOrderNum)
    const done = await fetch(qrCode, { method: 'POST', body: new URLSearchParams({ action: 'confirm' }), redirect: 'manual' })
    // a phone that scanned it never opened the app: it is told the outcome, not sent into the app
    expect(done.status).toBe(200)
    const result = await done.text()
    expect(result).toContain('支付成功')
    expect(result).toContain('data-paid="true"')
    expect(await payStatus(myOrderNum)).toBe(1)
    expect((await detail(myOrderNum)).payType).toBe(9)
    const again = await call('POST', '/api/pay/v1/alipay/precreate', { myOrderNum })
    expect(again.msg).toBe('订单已关闭或已支付')

    const cancelled = await newOrder()
    const code = (await call<{ qrCode: string }>('POST', '/api/pay/v1/alipay/precreate', { myOrderNum: cancelled })).data.qrCode
    const no = await fetch(code, { method: 'POST', body: new URLSearchParams({ action: 'cancel' }), redirect: 'manual' })
    expect(await no.text()).toContain('支付未完成')
    expect((await detail(cancelled)).finishPay).toBe(3)
  })

})

describe('payment switch', () => {
  const switchFor = async (userAgent: string) => {
    const r = await fetch(`${base}/api/pay/v1/client/left/getControlSwitch`, { headers: { Authorization: token, 'User-Agent': userAgent } })
    return ((await r.json()) as { data: PaySwitch }).data
  }

  it('reports the caller OS from its user agent and the operator switch with its payTips', async () => {
    expect((await switchFor('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).osName).toBe('ios')
    expect(await switchFor('Mozilla/5.0 (Linux; Android 13; Pixel 7)')).toEqual({ iosBuySwitch: true, androidBuySwitch: true, osName: 'android', payTips: '' })
    await opsPaySwitch(t.ops, 'ios', false, '苹果设备暂不支持购买')
    expect(await switchFor('Mozilla/5.0 (iPhone)')).toEqual({ iosBuySwitch: false, androidBuySwitch: true, osName: 'ios', payTips: '苹果设备暂不支持购买' })
    await opsPaySwitch(t.ops, 'ios', true)
    expect((await switchFor('x')).iosBuySwitch).toBe(true)
  })
})
