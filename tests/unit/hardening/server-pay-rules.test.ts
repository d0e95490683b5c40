// Issue 22 findings 8, 11 and 13: a device of another user answers exactly like a missing one on the single-device
// endpoints too; the payment switch and the batch switch are enforced by the server, not only by the screens; device
// names given at purchase follow the shared rule (worker/protocol/validators.ts).
import { describe, expect, it } from 'vitest'
import { opsPay, opsPaySwitch, opsSwitch } from '../../../server/ops.ts'
import { demoDevices, fleetDevices } from '../../../server/db/seed.ts'
import type { Device } from '../../../worker/protocol/devices.ts'
import type { Meal } from '../../../worker/protocol/pay.ts'
import { BATCH_CLOSED_TEXT, PAY_TIPS_DEFAULT } from '../../../worker/protocol/pay-switch.ts'
import { DEVICE_NAME_MAX, DEVICE_NAME_RULE, isDeviceName } from '../../../worker/protocol/validators.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 Mobile Safari/537.36'
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'

const tokenOf = async (phone: string) => (await loginToken(t.server.url, phone)).token
const dayCard = async (token: string) =>
  (await api<{ mealList: Meal[] }>(t.server.url, 'GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=STANDARD', { token })).body.data.mealList.find((m) => m.day === 1)!
const createOrder = async (token: string, body: Record<string, unknown>, userAgent = ANDROID_UA) =>
  (await api<{ myOrderNum: string }>(t.server.url, 'POST', '/api/pay/v1/order/create', { token, body, headers: { 'User-Agent': userAgent } })).body

describe('finding 8: one answer for a missing device and a stranger\'s, on every single-device endpoint', () => {
  it('connect, reboot, reset, model parameters and upgrade answer both alike, naming nothing', async () => {
    const member = await tokenOf('13500135000') // owns 880006 only; 880001 is demo's
    const calls: Array<[string, 'GET' | 'POST', (id: number) => string, (id: number) => unknown]> = [
      ['connect', 'POST', () => '/api/resources/user/cloud/connect', (id) => ({ userCardId: id })],
      ['reboot', 'GET', (id) => `/api/resources/api/usercard/reboot?userCardId=${id}`, () => undefined],
      ['reset', 'GET', (id) => `/api/resources/api/usercard/reset?userCardId=${id}`, () => undefined],
      ['model', 'GET', (id) => `/api/resources/v5/model/parameters/getUserCardModelParameters?userCardId=${id}`, () => undefined],
      ['upgrade', 'POST', () => '/api/pay/v1/meal/upgrade/getChangePackageList/client', (id) => ({ userCardId: id })],
    ]
    for (const [name, method, path, body] of calls) {
      const stranger = await api(t.server.url, method, path(880001), { token: member, body: body(880001) })
      const missing = await api(t.server.url, method, path(999999), { token: member, body: body(999999) })
      expect({ name, ...stranger.body }).toEqual({ name, status: 1004, success: false, msg: '云手机不存在或无权操作', data: null })
      expect({ name, ...missing.body }).toEqual({ name, ...stranger.body })
      expect(stranger.text).not.toContain('云手机-01')
    }
  })
})

describe('finding 11: the server enforces the payment switch and the batch switch', () => {
  it('refuses an order from an OS whose buy switch is off, with payTips or the default text', async () => {
    const token = await tokenOf('13500135000')
    const meal = await dayCard(token)
    const order = { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 1 }
    await opsPaySwitch(t.ops, 'android', false, '因监管要求，网页端暂停购买')
    try {
      expect(await createOrder(token, order, ANDROID_UA)).toMatchObject({ status: 1003, msg: '因监管要求，网页端暂停购买' })
      // the switch for every system but iOS: a desktop browser too
      expect(await createOrder(token, order, 'Mozilla/5.0 (X11; Linux x86_64)')).toMatchObject({ status: 1003 })
      expect((await createOrder(token, order, IPHONE_UA)).status).toBe(0)
      // a renewal is a purchase too (the screens block it alike)
      const renew = await createOrder(token, { buyType: 2, id: meal.id, phoneType: 'STANDARD', quantity: 1, userCardIdStr: '880006' }, ANDROID_UA)
      expect(renew).toMatchObject({ status: 1003, msg: '因监管要求，网页端暂停购买' })
      // payTips is one text for both systems: emptied, the default text is given
      await opsPaySwitch(t.ops, 'ios', false, '')
      expect(await createOrder(token, order, IPHONE_UA)).toMatchObject({ status: 1003, msg: PAY_TIPS_DEFAULT })
    } finally {
      await opsPaySwitch(t.ops, 'android', true, '')
      await opsPaySwitch(t.ops, 'ios', true)
    }
    expect((await createOrder(token, order, ANDROID_UA)).status).toBe(0)
  })

  it('refuses an order for several devices while the batch switch is off; one device still sells', async () => {
    const token = await tokenOf('13600136000') // fleet60: many STANDARD devices to renew
    const meal = await dayCard(token)
    const devices = (await api<Device[]>(t.server.url, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token })).body.data
    const standard = devices.filter((d) => d.phoneType === 'STANDARD' && d.buyVipType === devices.find((x) => x.phoneType === 'STANDARD')!.buyVipType)
    expect(standard.length).toBeGreaterThan(1)
    const member = await tokenOf('13500135000')
    await opsSwitch(t.ops, 'batch', false)
    try {
      const two = await createOrder(member, { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 2 })
      expect(two).toMatchObject({ status: 1003, msg: BATCH_CLOSED_TEXT })
      expect((await createOrder(member, { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 1 })).status).toBe(0)
      const ids = standard.slice(0, 2).map((d) => d.userCardId).join(',')
      expect(await createOrder(token, { buyType: 2, id: meal.id, phoneType: 'STANDARD', quantity: 2, userCardIdStr: ids })).toMatchObject({ status: 1003, msg: BATCH_CLOSED_TEXT })
      expect((await createOrder(token, { buyType: 2, id: meal.id, phoneType: 'STANDARD', quantity: 1, userCardIdStr: String(standard[0]!.userCardId) })).status).toBe(0)
    } finally {
      await opsSwitch(t.ops, 'batch', true)
    }
    expect((await createOrder(member, { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity: 2 })).status).toBe(0)
  })
})

describe('finding 13: device names at purchase', () => {
  it('the shared rule: 1 to 20 characters, no control, separator, bidi-override or comma characters', () => {
    expect(DEVICE_NAME_MAX).toBe(20)
    for (const ok of ['我的手机', 'a', '工作机 2号', '云手机-880001', 'x'.repeat(20), '😀'.repeat(20), '  主力机  ']) expect([ok, isDeviceName(ok)]).toEqual([ok, true])
    for (const bad of ['', '   ', 'x'.repeat(21), 'x'.repeat(2048), 'a\nb', 'a\u0000', 'a\u0007b', 'a\u009bb', 'a\u2028b', 'evil\u202Egnp.exe', 'a,b']) {
      expect([bad, isDeviceName(bad)]).toEqual([bad, false])
    }
  })

  it('every seeded device name follows the rule', () => {
    const names = [...demoDevices.map((d) => d.diskName), ...fleetDevices(1, Date.now()).map((d) => d.disk_name), '云手机-99999999']
    expect(names.filter((n) => !isDeviceName(n))).toEqual([])
  })

  it('the server refuses a name outside the rule and more names than devices; a good name reaches the new device', async () => {
    const token = await tokenOf('13700137000')
    const meal = await dayCard(token)
    const order = (quantity: number, diskName: string) =>
      createOrder(token, { buyType: 1, id: meal.id, phoneType: 'STANDARD', androidVersion: '12', quantity, diskName })
    for (const bad of ['x'.repeat(2048), 'x'.repeat(21), 'a\u0007b', 'evil\u202Egnp']) {
      expect(await order(1, bad)).toMatchObject({ status: 1001, msg: DEVICE_NAME_RULE })
    }
    expect(await order(1, '甲,乙')).toMatchObject({ status: 1001, msg: DEVICE_NAME_RULE })
    const made = await order(1, '  我的工作机  ')
    expect(made.status).toBe(0)
    await api(t.server.url, 'POST', '/api/pay/v1/alipay/precreate', { token, body: { myOrderNum: made.data.myOrderNum } })
    const paid = await opsPay(t.ops, made.data.myOrderNum, 'success')
    const devices = (await api<Device[]>(t.server.url, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token })).body.data
    expect(devices.find((d) => d.userCardId === paid.userCardIds[0])?.diskName).toBe('我的工作机')
  })
})
