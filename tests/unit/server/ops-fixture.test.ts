// The operator fixture endpoint (POST /__ops/fixture) behind the end-to-end isolation: every call is a new set of the
// demo accounts with the demo profiles' data, sharing nothing with the seed or another call; only the operator gets it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opsFixture } from '../../../server/ops.ts'
import type { FixtureWorld } from '../../../server/ops/fixtures.ts'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { api, loginToken, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let first: FixtureWorld
let second: FixtureWorld

beforeAll(async () => {
  t = await startTestServer()
  first = await opsFixture(t.ops)
  second = await opsFixture(t.ops)
}, 60_000)
afterAll(async () => {
  await t?.stop()
})

const deviceNames = async (phone: string, password: string): Promise<Array<string>> => {
  const { token } = await loginToken(t.server.url, phone, password)
  const res = await api<Array<{ diskName: string }>>(t.server.url, 'GET', catalogue.getDeviceList.path, { token })
  return res.body.data.map((d) => d.diskName).sort()
}

describe('POST /__ops/fixture', () => {
  it('makes new accounts each call: no phone, username, card or code is shared with the seed or another call', () => {
    const phones = (w: FixtureWorld) => Object.values(w.accounts).map((a) => a.phone)
    const all = [...phones(first), ...phones(second), ...first.unregisteredPhones, ...second.unregisteredPhones]
    expect(new Set(all).size).toBe(all.length)
    for (const phone of all) expect(phone).toMatch(/^1[3-9]\d{9}$/)
    expect(all).not.toContain('13800138000')
    const cards = [...Object.values(first.cards), ...Object.values(second.cards)]
    expect(new Set(cards).size).toBe(cards.length)
    expect(first.codes.coupon).not.toBe(second.codes.coupon)
    for (const code of [...Object.values(first.codes), ...Object.values(second.codes)]) expect(code).toMatch(/^[A-Z0-9]{15}$/)
    for (const a of Object.values(first.accounts)) expect(a.username.length).toBeLessThanOrEqual(8)
  })

  it('gives the demo account of a world the five devices of the demo profile, under that world\'s card ids', async () => {
    const { demo, member } = first.accounts
    expect(await deviceNames(demo.phone, demo.password)).toEqual(['云手机-01', '云手机-02', '云手机-03', '伙伴的云手机', '已授权云手机'].sort())
    expect(await deviceNames(member.phone, member.password)).toEqual(['会员云手机'])
  })

  it('is refused without the operator token', async () => {
    const response = await fetch(`${t.server.url}/__ops/fixture`, { method: 'POST' })
    expect(response.status).toBe(401)
  })
})
