// Orders on the reference server: create, pay with star coins or the simulated Alipay QR, fulfil, list and cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Device } from '../../../worker/protocol/devices.ts'
import type { Coupon, Meal, Order } from '../../../worker/protocol/pay.ts'
import { opsPay } from '../../../server/ops.ts'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer
let base: string
let token: string
let meals: Meal[]

const call = async <A>(method: 'GET' | 'POST', path: string, body?: unknown) => (await api<A>(base, method, path, { token, body })).body
const devices = async () => (await call<Device[]>('GET', '/api/resources/v6/client/device/info/getDeviceList')).data
const starCoins = async () => (await call<number>('GET', '/api/pay/v5/starCoins')).data
const dayCard = () => meals.find((m) => m.day === 1)!
const create = (body: Record<string, unknown>) => call<{ myOrderNum: string }>('POST', '/api/pay/v1/order/create', body)

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  token = (await loginToken(base, '13700137000')).token
  meals = (await call<{ mealList: Meal[] }>('GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=STANDARD')).data.mealList
}, 60_000)
afterAll(() => t?.stop())

describe('orders', () => {
  it('lists the meals of one phone type with the api-notes fields', () => {
    expect(meals.length).toBeGreaterThan(0)
    for (const m of meals) {
      expect(m.phoneType).toBe('STANDARD')
      expect(m.customStatement).toBe('不限次数')
      expect(m.menuAddedService.map((s) => s.serviceName)).toContain('一键换机')
    }
  })

  it('a star coin purchase creates the device, takes the coins and grants none for a day card', async () => {
    const before = await devices()
    const coins = await starCoins()
    const { data, status } = await create({ buyType: 1, id: dayCard().id, phoneType: 'STANDARD', androidVersion: '12', quantity: 1 })
    expect(status).toBe(0)
    const paid = await call<{ starCoin: number }>('POST', '/api/pay/v2/starCoins/spend', { myOrderNum: data.myOrderNum })
    expect(paid.status).toBe(0)
    expect(paid.data.starCoin).toBe(20)
    expect(await starCoins()).toBe(coins - 20)
    const after = await devices()
    expect(after).toHaveLength(before.length + 1)
    const added = after.find((d) => !before.some((b) => b.userCardId === d.userCardId))!
    expect(added.androidVersion).toBe('12')
    expect(added.buyVipType).toBe('VIP')
    expect(added.validTime).toBeGreaterThan(23 * 60)
    expect((await call<number>('GET', `/api/pay/v1/alipay/h5/spend/getPayStatus?myOrderNum=${data.myOrderNum}`)).data).toBe(1)
  })

  it('refuses star coins the user does not have, in Chinese', async () => {
    const month = (await call<{ mealList: Meal[] }>('GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=PERFORMANCE')).data.mealList.find((m) => m.day === 30)!
    const { data } = await create({ buyType: 1, id: month.id, phoneType: 'PERFORMANCE', quantity: 1 })
    const paid = await call('POST', '/api/pay/v2/starCoins/spend', { myOrderNum: data.myOrderNum })
    expect(paid.status).not.toBe(0)
    expect(paid.msg).toMatch(/星币余额不足/)
  })

  it('an Alipay QR order is paying until the provider answers, then fulfilled with a push-worthy device', async () => {
    const before = (await devices()).length
    const { data } = await create({ buyType: 1, id: dayCard().id, phoneType: 'STANDARD', quantity: 2 })
    const qr = await call<{ qrCode: string; closeTime: number; totalAmount: string }>('POST', '/api/pay/v1/alipay/precreate', { myOrderNum: data.myOrderNum })
    expect(qr.data.qrCode).toMatch(new RegExp(`^${base}/api/pay/reference-gateway/[A-Za-z0-9_-]{32}$`))
    expect(qr.data.totalAmount).toBe('3.98')
    expect(qr.data.closeTime).toBeGreaterThan(Date.now())
    expect((await call<number>('GET', `/api/pay/v1/alipay/h5/spend/getPayStatus?myOrderNum=${data.myOrderNum}`)).data).toBe(3)
    await opsPay(t.ops, data.myOrderNum, 'success')
    expect((await call<number>('GET', `/api/pay/v1/alipay/h5/spend/getPayStatus?myOrderNum=${data.myOrderNum}`)).data).toBe(1)
    expect((await devices()).length).toBe(before + 2)
    await expect(opsPay(t.ops, data.myOrderNum, 'success')).rejects.toThrow(/订单已关闭或已支付/)
  })

  it('a coupon is held by the order, refused to star coins and given back on cancel', async () => {
    const coupons = (await call<Coupon[]>('POST', '/api/pay/v3/invitation/client/getUserCouponSort', { products: '10', payAmount: 1.99 })).data
    const coupon = coupons.find((c) => c.couponType === 1)!
    const { data } = await create({ buyType: 1, id: dayCard().id, phoneType: 'STANDARD', quantity: 1, couponId: coupon.id })
    const order = (await call<Order>('GET', `/api/pay/v1/order/info/detail?myOrderNum=${data.myOrderNum}`)).data
    expect(order.totalAmount).toBe('0.01')
    expect((await call('POST', '/api/pay/v2/starCoins/spend', { myOrderNum: data.myOrderNum })).msg).toMatch(/优惠券/)
    const again = (await call<Coupon[]>('POST', '/api/pay/v3/invitation/client/getUserCouponSort', { products: '10', payAmount: 1.99 })).data
    expect(again.some((c) => c.id === coupon.id)).toBe(false)
    expect((await call<boolean>('GET', `/api/pay/v1/order/info/cancelOrderHandle?myOrderNum=${data.myOrderNum}`)).data).toBe(true)
    expect((await call<boolean>('GET', `/api/pay/v1/order/info/cancelOrder?myOrderNum=${data.myOrderNum}`)).status).toBe(0)
    const back = (await call<Coupon[]>('POST', '/api/pay/v3/invitation/client/getUserCouponSort', { products: '10', payAmount: 1.99 })).data
    expect(back.some((c) => c.id === coupon.id)).toBe(true)
  })

  it('renews only my own devices, extending their validity', async () => {
    // the devices bought above: partner's seeded device is authorised to someone, so it cannot be renewed
    const mine = (await devices()).find((d) => d.phoneAuthStatus === 0 && d.phoneType === 'STANDARD')!
    const { data, status } = await create({ buyType: 2, id: dayCard().id, phoneType: 'STANDARD', quantity: 1, userCardIdStr: String(mine.userCardId) })
    expect(status).toBe(0)
    await call('POST', '/api/pay/v1/alipay/precreate', { myOrderNum: data.myOrderNum })
    await opsPay(t.ops, data.myOrderNum, 'success')
    const renewed = (await devices()).find((d) => d.userCardId === mine.userCardId)!
    expect(renewed.validTime - mine.validTime).toBeGreaterThanOrEqual(24 * 60 - 1)
    for (const foreignOrAuthorised of ['880001', '880004']) {
      const refused = await create({ buyType: 2, id: dayCard().id, phoneType: 'STANDARD', quantity: 1, userCardIdStr: foreignOrAuthorised })
      expect(refused.msg).toMatch(/只能为自己的云手机续费/)
    }
  })

  it('pages orders newest first and filters unpaid and paid', async () => {
    const all = (await call<{ list: Order[]; total: number }>('POST', '/api/pay/v1/order/info/qryDegreeOrder', { pageNum: 1, pageSize: 20 })).data
    expect(all.total).toBe(all.list.length)
    expect(all.list[0]!.ctime).toBeGreaterThanOrEqual(all.list[all.list.length - 1]!.ctime)
    const paid = (await call<{ list: Order[] }>('POST', '/api/pay/v1/order/info/qryDegreeOrder', { pageNum: 1, pageSize: 20, finishPay: 1 })).data
    expect(paid.list.every((o) => o.finishPay === 1)).toBe(true)
    expect(paid.list.some((o) => o.payType === 4)).toBe(true)
  })

  it('upgrades a device of mine to the dearer phone type for the daily difference', async () => {
    const mine = (await devices()).find((d) => d.phoneAuthStatus === 0 && d.phoneType === 'STANDARD')!
    const options = (await call<Array<{ phoneType: string; upgradePrice: string }>>('POST', '/api/pay/v1/meal/upgrade/getChangePackageList/client', { userCardId: mine.userCardId })).data
    expect(options.map((o) => o.phoneType)).toEqual(['PERFORMANCE'])
    const { data } = await call<{ myOrderNum: string }>('POST', '/api/pay/v1/meal/upgrade/selectReplaceCloud', { userCardId: mine.userCardId, phoneType: 'PERFORMANCE' })
    await call('POST', '/api/pay/v1/alipay/precreate', { myOrderNum: data.myOrderNum })
    await opsPay(t.ops, data.myOrderNum, 'success')
    const after = (await devices()).find((d) => d.userCardId === mine.userCardId)!
    expect(after.phoneType).toBe('PERFORMANCE')
    expect(after.buyVipType).toBe('SVIP')
    // authorised to me (880005): not mine to upgrade; a stranger's (880001) answers like a missing one (issue 22 finding 8)
    const refused = await call('POST', '/api/pay/v1/meal/upgrade/getChangePackageList/client', { userCardId: 880005 })
    expect(refused.msg).toMatch(/只能升级自己的云手机/)
    const stranger = await call('POST', '/api/pay/v1/meal/upgrade/getChangePackageList/client', { userCardId: 880001 })
    const missing = await call('POST', '/api/pay/v1/meal/upgrade/getChangePackageList/client', { userCardId: 999999 })
    expect(stranger).toMatchObject({ status: 1004, msg: '云手机不存在或无权操作' })
    expect(missing).toMatchObject({ status: stranger.status, msg: stranger.msg })
  })
})
