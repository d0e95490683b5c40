// Device operations over the database: who may connect, reboot, reset and repair, and the restarting window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue as c } from '../../../worker/protocol/catalogue.ts'
import { BUSY_MS, REBOOT_MS, startDeviceServer, type DeviceTestServer } from './harness.ts'

let srv: DeviceTestServer
beforeAll(async () => {
  srv = await startDeviceServer()
}, 60_000)
afterAll(() => srv?.close())

describe('connect', () => {
  it('gives the owner a ready result that selects the phone scrcpy stream', async () => {
    const res = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880001 })
    expect(res.status).toBe(0)
    expect(res.data).toMatchObject({ userCardId: 880001, sn: 'SN880001', streamMode: 'scrcpy' })
    expect(res.data.cardToken).toMatch(/^[0-9a-f]{32}$/)
    expect(res.data.internetHttps).toBe(srv.url)
  })

  it('lets an authorised user connect to the device authorised to them', async () => {
    const res = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880004 })
    expect(res.status).toBe(0)
    expect(res.data.userCardId).toBe(880004)
  })

  it("refuses someone else's device exactly like an unknown one, with a Chinese message (issue 22 finding 8)", async () => {
    const other = await srv.call(srv.tokens.unbound, c.connect, { userCardId: 880001 })
    expect(other).toMatchObject({ status: 1004, msg: '云手机不存在或无权操作', data: null })
    const unknown = await srv.call(srv.tokens.demo, c.connect, { userCardId: 999999 })
    expect(unknown).toEqual(other)
  })

  it('refuses an expired device', async () => {
    const res = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880003 })
    expect(res).toMatchObject({ status: 1005, msg: '云手机已过期，请续费后使用' })
  })

  it('requires a login', async () => {
    const res = await fetch(`${srv.url}${c.connect.path}`, { method: 'POST', body: JSON.stringify({ userCardId: 880001 }) })
    expect(res.status).toBe(401)
  })
})

describe('reboot, reset and repair', () => {
  it('answers 5200 with growing progress while a rebooted device restarts, then connects again', async () => {
    const reboot = await srv.call(srv.tokens.demo, c.rebootDevice, { userCardId: 880002 })
    expect(reboot.status).toBe(0)
    expect(reboot.data).toEqual({ userCardId: 880002, busySeconds: REBOOT_MS / 1000 })
    const first = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880002 })
    expect(first.status).toBe(5200)
    expect(first.data).toEqual({ starting: true, progress: 0 })
    srv.advance(REBOOT_MS / 2)
    const middle = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880002 })
    expect(middle.status).toBe(5200)
    expect(middle.data.progress).toBe(50)
    const again = await srv.call(srv.tokens.demo, c.rebootDevice, { userCardId: 880002 })
    expect(again).toMatchObject({ status: 1201, msg: '云手机正在重启中，请稍后再试' })
    srv.advance(REBOOT_MS / 2)
    const ready = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880002 })
    expect(ready.status).toBe(0)
  })

  it('lets an authorised user reboot but not reset', async () => {
    const reboot = await srv.call(srv.tokens.demo, c.rebootDevice, { userCardId: 880004 })
    expect(reboot.status).toBe(0)
    srv.advance(REBOOT_MS)
    const reset = await srv.call(srv.tokens.demo, c.resetDevice, { userCardId: 880004 })
    expect(reset).toMatchObject({ status: 1003, msg: '授权给您的云手机不能恢复出厂设置' })
  })

  it('keeps a reset device busy for the whole reset window', async () => {
    const reset = await srv.call(srv.tokens.demo, c.resetDevice, { userCardId: 880001 })
    expect(reset.data).toEqual({ userCardId: 880001, busySeconds: BUSY_MS / 1000 })
    srv.advance(BUSY_MS - 1000)
    expect((await srv.call(srv.tokens.demo, c.connect, { userCardId: 880001 })).status).toBe(5200)
    srv.advance(1000)
    expect((await srv.call(srv.tokens.demo, c.connect, { userCardId: 880001 })).status).toBe(0)
  })

  it('sends changeCard for the same card to the owner and the authorised user after a repair', async () => {
    srv.pushes.length = 0
    const repair = await srv.call(srv.tokens.partner, c.oneKeyRepair, { userCardId: 880005 })
    expect(repair.status).toBe(0)
    expect(srv.pushes).toEqual(expect.arrayContaining([
      { to: 'demo', message: { type: 'changeCard', data: { userCardId: 880005, diskName: '已授权云手机' } } },
      { to: 'partner', message: { type: 'changeCard', data: { userCardId: 880005, diskName: '已授权云手机' } } },
    ]))
    srv.advance(BUSY_MS)
  })
})

describe('bulk operations', () => {
  it('reports each device on its own: done, expired, not allowed, unknown', async () => {
    const res = await srv.call(srv.tokens.demo, c.bulkReset, { userCardIds: [880001, 880003, 880004, 777] })
    expect(res.status).toBe(0)
    expect(res.data).toEqual([
      { userCardId: 880001, diskName: '云手机-01', ok: true, msg: '操作成功' },
      { userCardId: 880003, diskName: '云手机-03', ok: false, msg: '云手机已过期，请续费后使用' },
      { userCardId: 880004, diskName: '伙伴的云手机', ok: false, msg: '授权给您的云手机不能恢复出厂设置' },
      { userCardId: 777, diskName: '777', ok: false, msg: '云手机不存在或无权操作' },
    ])
    srv.advance(BUSY_MS)
  })

  it('reboots every chosen device the user may use, including ones authorised to them', async () => {
    const res = await srv.call(srv.tokens.demo, c.bulkReboot, { userCardIds: [880002, 880004] })
    expect(res.data.map((r: { ok: boolean }) => r.ok)).toEqual([true, true])
    srv.advance(REBOOT_MS)
  })

  it('refuses an empty selection', async () => {
    const res = await srv.call(srv.tokens.demo, c.bulkReboot, { userCardIds: [] })
    expect(res).toMatchObject({ status: 1001, msg: '请选择云手机' })
  })
})
