// Personal-centre activities on the reference server: the cards, redeeming star coins for an activation code that
// then exchanges like any other, refusals in Chinese, and the coupons that arrived lately.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Coupon } from '../../../worker/protocol/account.ts'
import type { CommodityCode, PersonalActivity } from '../../../worker/protocol/activity.ts'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer
let base: string
let token: string
const call = async <A>(method: 'GET' | 'POST', path: string, body?: unknown) => (await api<A>(base, method, path, { token, body })).body
const balance = async () => (await call<number>('GET', '/api/pay/v5/starCoins')).data

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  token = (await loginToken(base, '13500135000')).token
}, 60_000)
afterAll(() => t?.stop())

describe('personal-centre activities', () => {
  it('lists the activities with their star coin prices', async () => {
    const list = (await call<PersonalActivity[]>('GET', '/api/activity/activity/basic/getPersonalCenterActivity')).data
    expect(list.map((a) => [a.title, a.commodityId, a.starCoin])).toEqual([['星币换优惠券', 1, 50], ['星币换云手机时长', 2, 300]])
  })

  it('redeems star coins for a code that exchanges into a coupon, once', async () => {
    const before = await balance()
    const r = await call<CommodityCode>('POST', '/api/activity/integral/commodity/activationCode', { commodityId: 1 })
    expect(r.status).toBe(0)
    expect(r.data.activationCode).toMatch(/^[A-Z2-9]{15}$/)
    expect(await balance()).toBe(before - 50)
    const exchanged = await call<{ codeType: number; couponName?: string }>('POST', '/api/pay/v1/activation/exchangeActivationCode', { code: r.data.activationCode })
    expect(exchanged.status).toBe(0)
    expect(exchanged.data.codeType).toBe(3)
    expect(exchanged.data.couponName).toBe('星币兑换10元券')
    const again = await call('POST', '/api/pay/v1/activation/exchangeActivationCode', { code: r.data.activationCode })
    expect(again.status).not.toBe(0)
  })

  it('refuses what the balance cannot pay and unknown commodities, taking nothing', async () => {
    const before = await balance()
    const dear = await call('POST', '/api/activity/integral/commodity/activationCode', { commodityId: 2 })
    expect(dear.msg).toBe(`星币余额不足（需要300星币，当前${before}星币）`)
    expect((await call('POST', '/api/activity/integral/commodity/activationCode', { commodityId: 99 })).msg).toBe('兑换商品不存在')
    expect(await balance()).toBe(before)
  })

  it('new coupons are the usable ones received within 7 days, newest first', async () => {
    // the demo coupons were received 34 days ago and more; the one exchanged above is new
    const list = (await call<Coupon[]>('GET', '/api/pay/v3/invitation/client/getNewCoupon')).data
    expect(list.map((c) => c.couponName)).toEqual(['星币兑换10元券'])
    expect(list[0]).toMatchObject({ couponType: 1, couponValue: 10, status: 1 })
  })
})
