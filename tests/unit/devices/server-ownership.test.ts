// Ownership changes over the database: authorisation and its cancellation, transfer, one-tap new device, records,
// recommended phones and model parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue as c } from '../../../worker/protocol/catalogue.ts'
import { BUSY_MS, REBOOT_MS, startDeviceServer, type DeviceTestServer } from './harness.ts'

let srv: DeviceTestServer
beforeAll(async () => {
  srv = await startDeviceServer()
}, 60_000)
afterAll(() => srv?.close())

const PARTNER_PHONE = '13700137000'
const UNBOUND_PHONE = '13900139000'

const deviceIds = async (token: string): Promise<number[]> =>
  (await srv.call(token, c.getDeviceList, {})).data.map((d: { userCardId: number }) => d.userCardId)

describe('phone authorisation', () => {
  it('lists the seeded authorisation for the owner (authType 0) and the grantee (authType 1)', async () => {
    const mine = await srv.call(srv.tokens.demo, c.getPhoneAuthNewRecord, { authType: 0 })
    expect(mine.data).toEqual([expect.objectContaining({ userCardId: 880005, authType: 0, authPhone: PARTNER_PHONE, status: 0 })])
    const toMe = await srv.call(srv.tokens.partner, c.getPhoneAuthNewRecord, { authType: 1 })
    expect(toMe.data).toEqual([expect.objectContaining({ userCardId: 880005, authType: 1, ownerPhone: '13800138000' })])
  })

  it('refuses a malformed phone, an unregistered phone, oneself and a device already authorised', async () => {
    const cases: Array<[number, string, string]> = [
      [880001, '1380013800', '请输入正确的手机号'],
      [880001, '13012345678', '该手机号未注册'],
      [880001, '13800138000', '不能操作给自己'],
      [880005, UNBOUND_PHONE, '该云手机已授权给其他用户，请先取消授权'],
    ]
    for (const [userCardId, phone, msg] of cases) {
      const res = await srv.call(srv.tokens.demo, c.setPhoneAuthUserPhone, { userCardId, phone })
      expect(res.msg).toBe(msg)
      expect(res.status).not.toBe(0)
    }
  })

  it('does not let an authorised user authorise the device onwards', async () => {
    const res = await srv.call(srv.tokens.demo, c.setPhoneAuthUserPhone, { userCardId: 880004, phone: UNBOUND_PHONE })
    expect(res).toMatchObject({ status: 1003, msg: '授权给您的云手机不能再授权' })
  })

  it('authorises a device to another phone, which then appears in their list, and both lists refresh', async () => {
    srv.pushes.length = 0
    const res = await srv.call(srv.tokens.demo, c.setPhoneAuthUserPhone, { userCardId: 880002, phone: UNBOUND_PHONE })
    expect(res.data).toMatchObject({ userCardId: 880002, authType: 0, authPhone: UNBOUND_PHONE, status: 0 })
    expect(await deviceIds(srv.tokens.unbound)).toEqual([880002])
    expect(srv.pushes.map((p) => `${p.to}:${p.message.type}`).sort()).toEqual(['demo:refreshCloudPhoneList', 'wx_unbound:refreshCloudPhoneList'])
  })

  it('lets only the owner cancel; the grantee gets removeAuth and loses the device', async () => {
    const [record] = (await srv.call(srv.tokens.unbound, c.getPhoneAuthNewRecord, { authType: 1 })).data
    const byGrantee = await srv.call(srv.tokens.unbound, c.cancelPhoneAuth, { id: record.id })
    expect(byGrantee).toMatchObject({ status: 1003, msg: '只有云手机所有者可以取消授权' })
    const byStranger = await srv.call(srv.tokens.partner, c.phoneAuthDetails, { id: record.id })
    expect(byStranger).toMatchObject({ status: 1004, msg: '授权记录不存在' })
    srv.pushes.length = 0
    const cancelled = await srv.call(srv.tokens.demo, c.cancelPhoneAuth, { id: record.id })
    expect(cancelled.data).toMatchObject({ status: 1, userCardId: 880002 })
    expect(cancelled.data.cancelTime).not.toBeNull()
    expect(srv.pushes).toContainEqual({ to: 'wx_unbound', message: { type: 'removeAuth', data: { userCardId: 880002, diskName: '云手机-02' } } })
    expect(await deviceIds(srv.tokens.unbound)).toEqual([])
    expect((await srv.call(srv.tokens.unbound, c.connect, { userCardId: 880002 })).status).toBe(1004)
    const twice = await srv.call(srv.tokens.demo, c.cancelPhoneAuth, { id: record.id })
    expect(twice.msg).toBe('该授权已取消')
  })
})

describe('transfer', () => {
  it('refuses devices that are authorised out or not owned, and keeps everything in place', async () => {
    const authorisedOut = await srv.call(srv.tokens.demo, c.transferDevices, { userCardIds: [880001, 880005], phone: UNBOUND_PHONE })
    expect(authorisedOut.msg).toBe('云手机「已授权云手机」已授权给他人，请先取消授权')
    const notMine = await srv.call(srv.tokens.demo, c.transferDevices, { userCardIds: [880004], phone: UNBOUND_PHONE })
    expect(notMine.msg).toBe('授权给您的云手机不能转移')
    expect(await deviceIds(srv.tokens.unbound)).toEqual([])
  })

  it('moves the device to the recipient, records it for both and refreshes both lists', async () => {
    srv.pushes.length = 0
    const res = await srv.call(srv.tokens.demo, c.transferDevices, { userCardIds: [880002], phone: UNBOUND_PHONE })
    expect(res.data).toEqual({ count: 1, phone: UNBOUND_PHONE })
    expect(await deviceIds(srv.tokens.unbound)).toEqual([880002])
    expect(await deviceIds(srv.tokens.demo)).not.toContain(880002)
    expect(srv.pushes.map((p) => `${p.to}:${p.message.type}`).sort()).toEqual(['demo:refreshCloudPhoneList', 'wx_unbound:refreshCloudPhoneList'])
    const out = await srv.call(srv.tokens.demo, c.transferRecords, { pageNum: 1, pageSize: 10 })
    expect(out.data).toEqual({ total: 1, list: [expect.objectContaining({ userCardId: 880002, direction: 'out', counterpartPhone: UNBOUND_PHONE })] })
    const inbound = await srv.call(srv.tokens.unbound, c.transferRecords, { pageNum: 1, pageSize: 10 })
    expect(inbound.data.list[0]).toMatchObject({ direction: 'in', counterpartPhone: '13800138000' })
  })
})

describe('one-tap new device', () => {
  it('gives the card a new id, keeps it busy, tells its users and allows it once a day', async () => {
    srv.pushes.length = 0
    const res = await srv.call(srv.tokens.demo, c.replaceDevice, { userCardId: 880001 })
    expect(res.status).toBe(0)
    const { newUserCardId } = res.data
    expect(newUserCardId).toBeGreaterThan(880005)
    expect(await deviceIds(srv.tokens.demo)).toContain(newUserCardId)
    expect(srv.pushes).toContainEqual({ to: 'demo', message: { type: 'changeCard', data: { userCardId: 880001, diskName: '云手机-01' } } })
    expect((await srv.call(srv.tokens.demo, c.connect, { userCardId: newUserCardId })).status).toBe(5200)
    srv.advance(BUSY_MS)
    const again = await srv.call(srv.tokens.demo, c.replaceDevice, { userCardId: newUserCardId })
    expect(again.msg).toBe('每台云手机24小时内只能换机一次')
    const records = await srv.call(srv.tokens.demo, c.replacementRecords, {})
    expect(records.data[0]).toMatchObject({ oldUserCardId: 880001, newUserCardId, diskName: '云手机-01' })
  })

  it('is refused to an authorised user', async () => {
    const res = await srv.call(srv.tokens.demo, c.replaceDevice, { userCardId: 880004 })
    expect(res.msg).toBe('授权给您的云手机不能一键换机')
  })
})

describe('records and recommendations', () => {
  it('pages the timer shutdown records of my own devices, newest first', async () => {
    const res = await srv.call(srv.tokens.demo, c.timingRecords, { pageNum: 1, pageSize: 2 })
    expect(res.data.list).toHaveLength(2)
    expect(res.data.total).toBeGreaterThanOrEqual(6)
    expect(new Date(res.data.list[0].offlineTime) >= new Date(res.data.list[1].offlineTime)).toBe(true)
    const one = await srv.call(srv.tokens.demo, c.timingRecords, { pageNum: 1, pageSize: 10, userCardId: 880003 })
    expect(one.data.list.map((r: { timerType: number }) => r.timerType).sort()).toEqual([1, 2, 3])
  })

  it('recommends usable devices, most connected first, without expired ones', async () => {
    await srv.call(srv.tokens.demo, c.connect, { userCardId: 880004 })
    await srv.call(srv.tokens.demo, c.connect, { userCardId: 880004 })
    const res = await srv.call(srv.tokens.demo, c.getCommonUserCard, {})
    const ids = res.data.map((d: { userCardId: number }) => d.userCardId)
    expect(ids[0]).toBe(880004)
    expect(ids).not.toContain(880003)
    expect(res.data[0]).toMatchObject({ authPhone: 1, phoneAuthStatus: 1 })
  })
})

describe('model parameters', () => {
  it('changes the model to one of the manufacturer, restarts the device, and restores the factory model', async () => {
    const before = (await srv.call(srv.tokens.demo, c.getUserCardModelParameters, { userCardId: 880005 })).data
    expect(before.modified).toBe(false)
    expect(before.imei).toMatch(/^86\d{13}$/)
    const makers = (await srv.call(srv.tokens.demo, c.getManufacturer, {})).data as string[]
    const target = makers.find((m) => m !== before.manufacturer)!
    const models = (await srv.call(srv.tokens.demo, c.getModelParameters, { manufacturer: target })).data
    expect(models.every((m: { manufacturer: string }) => m.manufacturer === target)).toBe(true)
    const wrong = await srv.call(srv.tokens.demo, c.updateModelParameters, { userCardId: 880005, manufacturer: before.manufacturer, model: models[0].model })
    expect(wrong.msg).toBe('机型不存在')
    const changed = await srv.call(srv.tokens.demo, c.updateModelParameters, { userCardId: 880005, manufacturer: target, model: models[0].model })
    expect(changed.data).toMatchObject({ manufacturer: target, model: models[0].model, modified: true })
    expect(changed.data.imei).not.toBe(before.imei)
    expect((await srv.call(srv.tokens.demo, c.connect, { userCardId: 880005 })).status).toBe(5200)
    srv.advance(REBOOT_MS)
    const restored = await srv.call(srv.tokens.demo, c.restoreModelParameters, { userCardId: 880005 })
    expect(restored.data).toEqual(before)
    srv.advance(REBOOT_MS)
  })

  it('shows an authorised user the parameters but does not let them change them', async () => {
    expect((await srv.call(srv.tokens.partner, c.getUserCardModelParameters, { userCardId: 880005 })).status).toBe(0)
    const res = await srv.call(srv.tokens.partner, c.restoreModelParameters, { userCardId: 880005 })
    expect(res.msg).toBe('授权给您的云手机不能修改机型参数')
  })
})
