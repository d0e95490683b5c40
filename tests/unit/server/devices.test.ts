// The demo user's device list: five devices with tier, expiry and authorisation markers computed at read time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Device } from '../../../worker/protocol/devices.ts'
import { api, loginToken, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
let demoToken: string
let partnerToken: string

const list = async (token: string): Promise<Device[]> => {
  const { body } = await api<Device[]>(base, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token })
  expect(body.status).toBe(0)
  return body.data
}

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  demoToken = (await loginToken(base, '13800138000')).token
  partnerToken = (await loginToken(base, '13700137000')).token
}, 60_000)
afterAll(() => t?.stop())

describe('device list', () => {
  it('the demo user has five devices in two tiers', async () => {
    const devices = await list(demoToken)
    expect(devices).toHaveLength(5)
    expect(new Set(devices.map((d) => d.buyVipType))).toEqual(new Set(['VIP', 'SVIP']))
    expect(new Set(devices.map((d) => d.userCardId)).size).toBe(5)
  })

  it('one device expires within three days and one has expired', async () => {
    const devices = await list(demoToken)
    const soon = devices.filter((d) => d.validTime > 0 && d.validTime <= 4320)
    const expired = devices.filter((d) => d.validTime <= 0)
    expect(soon).toHaveLength(1)
    expect(expired).toHaveLength(1)
    expect(devices.filter((d) => d.validTime > 4320)).toHaveLength(3)
  })

  it('one device is authorised to the demo user and one is authorised by them to someone else', async () => {
    const devices = await list(demoToken)
    const toMe = devices.filter((d) => d.phoneAuthStatus === 1 && d.authPhone === 1)
    const byMe = devices.filter((d) => d.phoneAuthStatus === 1 && d.authPhone === 0)
    expect(toMe).toHaveLength(1)
    expect(toMe[0]!.userName).toBe('partner')
    expect(byMe).toHaveLength(1)
    expect(byMe[0]!.userName).toBe('demo')
    expect(devices.filter((d) => d.phoneAuthStatus === 0)).toHaveLength(3)
  })

  it('validTime is computed from the stored expiry at read time', async () => {
    const before = (await list(demoToken)).find((d) => d.userCardId === 880001)!
    await t.server.db.updateTable('devices').set({ expires_at: new Date(Date.now() + 90 * 60_000) }).where('user_card_id', '=', 880001).execute()
    const after = (await list(demoToken)).find((d) => d.userCardId === 880001)!
    expect(before.validTime).toBeGreaterThan(4320)
    expect(after.validTime).toBeGreaterThanOrEqual(89)
    expect(after.validTime).toBeLessThanOrEqual(90)
  })

  it('the other party sees the same authorisations from their side', async () => {
    const devices = await list(partnerToken)
    const shared = devices.find((d) => d.userCardId === 880005)!
    const own = devices.find((d) => d.userCardId === 880004)!
    expect(shared).toMatchObject({ phoneAuthStatus: 1, authPhone: 1 })
    expect(own).toMatchObject({ phoneAuthStatus: 1, authPhone: 0 })
  })

  it('the user who must bind a phone has no devices', async () => {
    const { token } = await loginToken(base, '13900139000')
    expect(await list(token)).toEqual([])
  })
})

describe('device operations', () => {
  it('a device of another user cannot be rebooted', async () => {
    const { token } = await loginToken(base, '13900139000')
    const { body } = await api(base, 'GET', '/api/resources/api/usercard/reboot?userCardId=880001', { token })
    expect(body.status).not.toBe(0)
    expect(body.msg).toMatch(/[\u4e00-\u9fff]/)
  })

  it('connecting to an expired device fails with a Chinese message', async () => {
    const { body } = await api(base, 'POST', '/api/resources/user/cloud/connect', { token: demoToken, body: { userCardId: 880003 } })
    expect(body.status).not.toBe(0)
    expect(body.msg).toMatch(/[\u4e00-\u9fff]/)
  })
})
