// Issue 11 finding 3: settlement re-checks an order's devices inside its transaction. A renewal and an upgrade of
// the same device, both paid, must not add up to an upgrade for the renewed time at the old price; whichever is
// settled second is refused (marked refunded, nothing granted), and star coins are not spent on a stale order.
import { describe, expect, it } from 'vitest'
import type { Device } from '../../../worker/protocol/devices.ts'
import type { Meal, Order } from '../../../worker/protocol/pay.ts'
import { opsPay } from '../../../server/ops.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

const REFUNDED = 6

const as = async (phone: string) => {
  const { token } = await loginToken(t.base, phone)
  const call = async <A>(method: 'GET' | 'POST', path: string, body?: unknown) => (await api<A>(t.base, method, path, { token, body })).body
  const device = async (userCardId: number) =>
    (await call<Device[]>('GET', '/api/resources/v6/client/device/info/getDeviceList')).data.find((d) => d.userCardId === userCardId)!
  const monthOf = async (phoneType: string) =>
    (await call<{ mealList: Meal[] }>('GET', `/api/pay/pay/phoneMenuRule/getMealList?phoneType=${phoneType}`)).data.mealList.find((m) => m.day === 30)!
  const renewOrder = async (userCardId: number) => {
    const meal = await monthOf('STANDARD')
    const r = await call<{ myOrderNum: string }>('POST', '/api/pay/v1/order/create', { buyType: 2, id: meal.id, phoneType: 'STANDARD', quantity: 1, userCardIdStr: String(userCardId) })
    expect(r.status).toBe(0)
    return r.data.myOrderNum
  }
  const upgradeOrder = async (userCardId: number) => {
    const r = await call<{ myOrderNum: string }>('POST', '/api/pay/v1/meal/upgrade/selectReplaceCloud', { userCardId, phoneType: 'PERFORMANCE' })
    expect(r.status).toBe(0)
    return r.data.myOrderNum
  }
  return { call, device, renewOrder, upgradeOrder }
}

const pay = (myOrderNum: string): Promise<Order> => opsPay(t.ops, myOrderNum, 'success')

describe('settlement re-checks the order', () => {
  it('renewal settled first: the upgrade ordered before it is refused and marked refunded', async () => {
    const member = await as('13500135000')
    const before = await member.device(880006)
    const renew = await member.renewOrder(880006)
    const upgrade = await member.upgradeOrder(880006)
    expect((await pay(renew)).finishPay).toBe(1)
    const refused = await pay(upgrade)
    expect(refused.finishPay).toBe(REFUNDED)
    const after = await member.device(880006)
    expect(after.buyVipType).toBe(before.buyVipType) // still STANDARD: no upgrade for the renewed 30 days
    expect(after.validTime - before.validTime).toBeGreaterThan(30 * 24 * 60 - 10)
  })

  it('upgrade settled first: the renewal of the old phone type is refused and marked refunded', async () => {
    const demo = await as('13800138000')
    const renew = await demo.renewOrder(880001)
    const upgrade = await demo.upgradeOrder(880001)
    const before = await demo.device(880001)
    expect((await pay(upgrade)).finishPay).toBe(1)
    expect((await pay(renew)).finishPay).toBe(REFUNDED)
    const after = await demo.device(880001)
    expect(after.buyVipType).toBe('SVIP')
    expect(Math.abs(after.validTime - before.validTime)).toBeLessThan(10) // not renewed
  })

  it('a renewal of a device transferred away in between is refused; star coins are not spent on it', async () => {
    const partner = await as('13700137000')
    const demo = await as('13800138000')
    // give the partner a fresh device of its own through a star coin purchase, then renew it and transfer it away
    const meal = (await partner.call<{ mealList: Meal[] }>('GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=STANDARD')).data.mealList.find((m) => m.day === 1)!
    const bought = await partner.call<{ myOrderNum: string }>('POST', '/api/pay/v1/order/create', { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 1 })
    expect((await partner.call('POST', '/api/pay/v2/starCoins/spend', { myOrderNum: bought.data.myOrderNum })).status).toBe(0)
    const order = await partner.call<Order>('GET', `/api/pay/v1/order/info/detail?myOrderNum=${bought.data.myOrderNum}`)
    const userCardId = order.data.userCardIds[0]!
    const renew = await partner.renewOrder(userCardId)
    const transfer = await partner.call('POST', '/api/resources/v5/cloudMachine/transfer/operate', { userCardIds: [userCardId], phone: '13800138000' })
    expect(transfer.status).toBe(0)
    const coins = (await partner.call<number>('GET', '/api/pay/v5/starCoins')).data
    const spent = await partner.call('POST', '/api/pay/v2/starCoins/spend', { myOrderNum: renew })
    expect(spent.status).not.toBe(0)
    expect(spent.msg).toContain('该订单已失效')
    expect((await partner.call<number>('GET', '/api/pay/v5/starCoins')).data).toBe(coins)
    expect((await demo.device(userCardId)).userCardId).toBe(userCardId)
  })
})
