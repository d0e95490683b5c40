// Issue 11 finding 6: requests racing on one row. Each test fires the same request many times at once (or requests
// that compete for one limit) and checks that exactly what one-at-a-time would allow happened: one authorisation of
// a device, one replacement per 24 h, at most 60 devices per account, distinct userCardIds, a transfer recorded only
// when the device moved, an activation code spent once. Runs on PGlite (unit) and PostgreSQL (unit-postgres).
import { randomInt } from 'node:crypto'
import { sql, type RawBuilder } from 'kysely'
import { describe, expect, it } from 'vitest'
import { opsFixture } from '../../../server/ops.ts'
import type { FixtureWorld } from '../../../server/ops/fixtures.ts'
import { ActivationCodeType } from '../../../worker/protocol/account.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { runOps } from '../../../server/ops.ts'
import { MAX_CODE_ATTEMPTS } from '../../../server/session/sms.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { MAX_DEVICES_PER_ACCOUNT } from '../../../worker/protocol/constants.ts'
import { api, loginToken, useTestServer, type Envelope } from '../server/helpers.ts'

const t = useTestServer()

const RACERS = 8

const tokenOf = async (world: FixtureWorld, who: keyof FixtureWorld['accounts']): Promise<string> =>
  (await loginToken(t.base, world.accounts[who].phone)).token

const count = async (query: RawBuilder<{ n: number }>): Promise<number> => Number((await query.execute(t.server.db)).rows[0]!.n)

/** Refusals are domain answers (HTTP 200, a non-zero status, a Chinese message), never a 500. */
const expectOneWinner = (results: ReadonlyArray<{ http: number; body: Envelope }>): number => {
  for (const r of results) {
    expect(r.http).toBe(200)
    if (r.body.status !== 0) expect(r.body.msg).toMatch(/[\u4e00-\u9fa5]/)
  }
  const winners = results.map((r, i) => (r.body.status === 0 ? i : -1)).filter((i) => i >= 0)
  expect(winners).toHaveLength(1)
  return winners[0]!
}

const deviceIdOf = async (userCardId: number): Promise<number> =>
  (await t.server.db.selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirstOrThrow()).id

/** Extra non-expired devices for a user, straight into the database (numbered far above the app's own). */
const addDevices = async (ownerPhone: string, n: number): Promise<number[]> => {
  const owner = await t.server.db.selectFrom('users').select('id').where('phone', '=', ownerPhone).executeTakeFirstOrThrow()
  const base = 500_000_000 + randomInt(0, 1_000_000) * 100
  const ids = Array.from({ length: n }, (_, i) => base + i)
  await t.server.db.insertInto('devices').values(ids.map((id) => ({
    user_card_id: id, owner_id: owner.id, disk_name: `竞争云手机-${id}`, buy_vip_type: 'VIP',
    expires_at: new Date(Date.now() + 30 * 86_400_000), room: '华东一区', free_trial: 0, phone_type: 'STANDARD',
    android_version: '12', preview_url: 'default',
  }))).execute()
  return ids
}

/** The fleet account holds exactly the cap: one device fewer leaves room for one. */
const dropOneDevice = async (ownerPhone: string): Promise<void> => {
  const one = await t.server.db.selectFrom('devices').innerJoin('users', 'users.id', 'devices.owner_id')
    .select('devices.id').where('users.phone', '=', ownerPhone).limit(1).executeTakeFirstOrThrow()
  await t.server.db.deleteFrom('devices').where('id', '=', one.id).execute()
}

const ownedBy = (phone: string) =>
  count(sql`select count(*)::int as n from devices d join users u on u.id = d.owner_id where u.phone = ${phone}`)

describe('races on one device', () => {
  it('a device authorised to several users at once ends authorised to one of them', async () => {
    const world = await opsFixture(t.ops)
    const token = await tokenOf(world, 'demo')
    const card = world.cards['云手机-01']!
    const to = [world.accounts.partner, world.accounts.member, world.accounts.fleet, world.accounts.unbound]
    const results = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
      api(t.base, 'POST', '/api/resources/v5/phoneAuth/setPhoneAuthUserPhone', { token, body: { userCardId: card, phone: to[i % to.length]!.phone } })))
    expectOneWinner(results)
    const deviceId = await deviceIdOf(card)
    expect(await count(sql`select count(*)::int as n from device_auths where device_id = ${deviceId}`)).toBe(1)
    // and the database itself holds one authorisation per device, whatever a handler does
    const other = await t.server.db.selectFrom('users').select('id').where('phone', '=', world.accounts.fleet.phone).executeTakeFirstOrThrow()
    const owner = await t.server.db.selectFrom('devices').select('owner_id').where('id', '=', deviceId).executeTakeFirstOrThrow()
    await t.server.db.deleteFrom('device_auths').where('device_id', '=', deviceId).where('grantee_id', '=', other.id).execute()
    await expect(t.server.db.insertInto('device_auths').values({ device_id: deviceId, owner_id: owner.owner_id, grantee_id: other.id }).execute())
      .rejects.toThrow(/unique|duplicate/i)
  })

  it('a device replaced several times at once is replaced once', async () => {
    const world = await opsFixture(t.ops)
    const token = await tokenOf(world, 'demo')
    const card = world.cards['云手机-01']!
    const deviceId = await deviceIdOf(card)
    const results = await Promise.all(Array.from({ length: RACERS }, () =>
      api(t.base, 'POST', '/api/resources/v1/cardStatus/change/mobilephone', { token, body: { userCardId: card } })))
    const winner = expectOneWinner(results)
    expect(await count(sql`select count(*)::int as n from device_replacements where device_id = ${deviceId}`)).toBe(1)
    const now = await t.server.db.selectFrom('devices').select('user_card_id').where('id', '=', deviceId).executeTakeFirstOrThrow()
    expect(now.user_card_id).toBe((results[winner]!.body.data as { newUserCardId: number }).newUserCardId)
  })

  it('a device transferred to several users at once moves once, with one transfer record', async () => {
    const world = await opsFixture(t.ops)
    const token = await tokenOf(world, 'demo')
    const card = world.cards['云手机-01']!
    const to = [world.accounts.partner, world.accounts.member, world.accounts.fleet, world.accounts.unbound]
    // fleet is at the 60-device cap: make room so every recipient could take it
    await dropOneDevice(world.accounts.fleet.phone)
    const results = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
      api(t.base, 'POST', '/api/resources/v5/cloudMachine/transfer/operate', { token, body: { userCardIds: [card], phone: to[i % to.length]!.phone } })))
    const winner = expectOneWinner(results)
    const deviceId = await deviceIdOf(card)
    expect(await count(sql`select count(*)::int as n from device_transfers where device_id = ${deviceId}`)).toBe(1)
    const owner = await t.server.db.selectFrom('devices').innerJoin('users', 'users.id', 'devices.owner_id')
      .select('users.phone').where('devices.id', '=', deviceId).executeTakeFirstOrThrow()
    expect(owner.phone).toBe(to[winner % to.length]!.phone)
  })
})

describe('the 60-device cap', () => {
  it('transfers racing into an account one device below the cap leave it at the cap', async () => {
    const world = await opsFixture(t.ops)
    const token = await tokenOf(world, 'member')
    const fleet = world.accounts.fleet.phone
    await dropOneDevice(fleet)
    const cards = await addDevices(world.accounts.member.phone, RACERS)
    const results = await Promise.all(cards.map((card) =>
      api(t.base, 'POST', '/api/resources/v5/cloudMachine/transfer/operate', { token, body: { userCardIds: [card], phone: fleet } })))
    expectOneWinner(results)
    expect(await ownedBy(fleet)).toBe(MAX_DEVICES_PER_ACCOUNT)
  })

  it('package codes exchanged at once by an account one device below the cap make one device', async () => {
    const world = await opsFixture(t.ops)
    const token = await tokenOf(world, 'fleet')
    const fleet = world.accounts.fleet.phone
    await dropOneDevice(fleet)
    const codes = await packageCodes(RACERS)
    const results = await Promise.all(codes.map((code) =>
      api(t.base, 'POST', '/api/pay/v1/activation/exchangeActivationCode', { token, body: { code } })))
    expectOneWinner(results)
    expect(await ownedBy(fleet)).toBe(MAX_DEVICES_PER_ACCOUNT)
  })
})

const packageCodes = async (n: number): Promise<string[]> => {
  const meal = await t.server.db.selectFrom('meals').select('id').orderBy('id').executeTakeFirstOrThrow()
  const codes = Array.from({ length: n }, () => `RACE${String(randomInt(0, 10 ** 11)).padStart(11, '0')}`)
  await sql`insert into account_activation_codes (code, code_type, meal_id, days, expires_at)
    select unnest(${codes}::text[]), ${ActivationCodeType.package}, ${meal.id}, 30, now() + interval '1 day'`.execute(t.server.db)
  return codes
}

describe('new devices', () => {
  it('devices made at once for different users get distinct userCardIds (no max+1 collision)', async () => {
    const worlds = [await opsFixture(t.ops), await opsFixture(t.ops)]
    const tokens = (await Promise.all(worlds.flatMap((w) => (['demo', 'partner', 'member'] as const).map((who) => tokenOf(w, who)))))
    const codes = await packageCodes(tokens.length)
    const before = await count(sql`select count(*)::int as n from devices`)
    const results = await Promise.all(tokens.map((token, i) =>
      api(t.base, 'POST', '/api/pay/v1/activation/exchangeActivationCode', { token, body: { code: codes[i] } })))
    for (const r of results) expect(r.body).toMatchObject({ status: 0 })
    expect(await count(sql`select count(*)::int as n from devices`)).toBe(before + tokens.length)
  })

  it('one activation code exchanged at once by several users is spent once', async () => {
    const worlds = [await opsFixture(t.ops), await opsFixture(t.ops)]
    const tokens = (await Promise.all(worlds.flatMap((w) => (['demo', 'partner', 'member'] as const).map((who) => tokenOf(w, who)))))
    const [code] = await packageCodes(1)
    const before = await count(sql`select count(*)::int as n from devices`)
    const results = await Promise.all(tokens.map((token) =>
      api(t.base, 'POST', '/api/pay/v1/activation/exchangeActivationCode', { token, body: { code } })))
    expectOneWinner(results)
    expect(await count(sql`select count(*)::int as n from devices`)).toBe(before + 1)
  })
})

describe('SMS codes', () => {
  const send = (phone: string) =>
    api(t.base, 'POST', '/api/message/v5/phone/send', { body: { type: 'common', authorizationType: SmsPurpose.quickLogin, phone } })

  it('sends to one phone at once issue one code', async () => {
    const world = await opsFixture(t.ops)
    const phone = world.unregisteredPhones[0]!
    const results = await Promise.all(Array.from({ length: 4 }, () => send(phone)))
    expectOneWinner(results)
    expect(await count(sql`select count(*)::int as n from sms_codes where phone = ${phone}`)).toBe(1)
  })

  it('wrong guesses at once take at most the code\'s attempts, and the right code after them is refused', async () => {
    const world = await opsFixture(t.ops)
    const phone = world.unregisteredPhones[1]!
    expect((await send(phone)).body.status).toBe(0)
    const code = await runOps(['sms', phone], t.ops)
    const wrong = code === '000000' ? '111111' : '000000'
    // fewer than the per-phone throttle's free wrong guesses, more than the code's own attempts
    const results = await Promise.all(Array.from({ length: MAX_CODE_ATTEMPTS + 3 }, () =>
      api(t.base, 'POST', '/api/user/v5/clientLogin/applet/quickLogin', { body: { phone, code: wrong, uuid: 'race' } })))
    for (const r of results) expect(r.body.status).not.toBe(0)
    const row = await sessionDb(t.server.db).selectFrom('sms_codes').select('attempts').where('phone', '=', phone).executeTakeFirstOrThrow()
    expect(row.attempts).toBe(MAX_CODE_ATTEMPTS)
    const right = await api(t.base, 'POST', '/api/user/v5/clientLogin/applet/quickLogin', { body: { phone, code, uuid: 'race' } })
    expect(right.body.status).not.toBe(0)
  })
})
