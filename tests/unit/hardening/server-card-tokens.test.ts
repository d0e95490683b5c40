// Issue 22 finding 1: a card token from connect ends with the session that asked for it (logout, password reset), with
// the device's expiry (by the device clock), with removeAuth, a transfer and a factory reset. A channel open at that
// moment closes with the reason the viewer explains (sessionEnded, expired, accessRemoved, restarting), the old token
// opens nothing afterwards, input sent on the closed channel changes nothing, and ended tokens are purged.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { purgeCardTokens } from '../../../server/devices/card-tokens.ts'
import { makeClock } from '../../../server/devices/clock.ts'
import { devicesDb } from '../../../server/devices/tables.ts'
import { runOps } from '../../../server/ops.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { api, encryptPassword, loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, startStreamServer, StreamClient, touch } from '../stream-server/support.ts'

const t = useTestServer()

const DAY = 24 * 60 * 60_000
const VISIT = '/api/user/v5/visitDetailed/operationVisitDetailed'

const db = () => devicesDb(t.server.db)
const deviceOf = async (userCardId: number): Promise<number> =>
  (await db().selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirstOrThrow()).id
const tokenRows = async (cardToken: string): Promise<number> =>
  (await db().selectFrom('device_sessions').select('card_token').where('card_token', '=', cardToken).execute()).length

/** 'opened', or the reason of the 'closed' the server answered an open with. */
const answer = (client: StreamClient, cardId: number): string | null => {
  const m = client.texts.find((x) => (x.op === 'opened' || x.op === 'closed') && x.cardId === cardId)
  if (!m) return null
  return m.op === 'opened' ? 'opened' : m.op === 'closed' ? m.reason : null
}

/** a socket that asked to open the card with the token, once the server answered. */
const openCard = async (base: string, cardId: number, cardToken: string): Promise<StreamClient> => {
  const client = new StreamClient(base)
  await client.opened()
  client.send({ op: 'open', cardId, cardToken, preset: 'smooth', audio: false })
  await client.until(() => answer(client, cardId) !== null, 'the answer to open')
  return client
}

/** what a new socket opening the card with the token is answered. */
const tryOpen = async (base: string, cardId: number, cardToken: string): Promise<string | null> => {
  const client = await openCard(base, cardId, cardToken)
  const result = answer(client, cardId)
  client.close()
  return result
}

/** the closed reason the open channel gets next. */
const closedWith = async (client: StreamClient, cardId: number): Promise<string | null> => {
  await client.until(() => client.texts.filter((m) => m.op === 'closed' && m.cardId === cardId).length > 0, `the close of ${cardId}`)
  return client.closedReason(cardId)
}

describe('card tokens end', () => {
  it('at logout: the session\'s open channel closes with sessionEnded and its token opens nothing; another session keeps its stream', async () => {
    const leaving = await loginToken(t.base, '13800138000')
    const staying = await loginToken(t.base, '13800138000')
    const old = await connectCard(t.base, leaving.token, 880001)
    const kept = await connectCard(t.base, staying.token, 880001)
    const a = await openCard(t.base, 880001, old.cardToken)
    const b = await openCard(t.base, 880001, kept.cardToken)
    expect([answer(a, 880001), answer(b, 880001)]).toEqual(['opened', 'opened'])

    const visit = await api(t.base, 'POST', VISIT, { token: leaving.token, body: { uuid: 'u', operationType: 2 } })
    expect(visit.body.status).toBe(0)
    expect(await closedWith(a, 880001)).toBe('sessionEnded')
    expect(await tryOpen(t.base, 880001, old.cardToken)).toBe('refused')
    expect(await tokenRows(old.cardToken)).toBe(0)
    // the other session of the same user is untouched
    expect(b.closedReason(880001)).toBeNull()
    expect(await tryOpen(t.base, 880001, kept.cardToken)).toBe('opened')
    a.close()
    b.close()
  })

  it('at a password reset: every session\'s channels close with sessionEnded and their tokens open nothing', async () => {
    const phone = '13500135000'
    const session = await loginToken(t.base, phone)
    const old = await connectCard(t.base, session.token, 880006)
    const a = await openCard(t.base, 880006, old.cardToken)
    expect(answer(a, 880006)).toBe('opened')

    await sessionDb(t.server.db).updateTable('sms_codes').set({ created_at: sql`created_at - interval '61 seconds'` } as never).where('phone', '=', phone).execute()
    expect((await api(t.base, 'POST', '/api/message/v5/phone/send', { body: { type: 'common', authorizationType: SmsPurpose.forgotPassword, phone } })).body.status).toBe(0)
    const code = await runOps(['sms', phone], t.ops)
    const pem = (await api<string>(t.base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
    const reset = await api(t.base, 'PUT', '/api/user/v5/user/passwordBackNew', { body: { phone, code, password: encryptPassword(pem, 'New2026pw') } })
    expect(reset.body.status).toBe(0)

    expect(await closedWith(a, 880006)).toBe('sessionEnded')
    expect(await tryOpen(t.base, 880006, old.cardToken)).toBe('refused')
    a.close()
  })

  it('at the device\'s expiry by the device clock: the open channel closes with expired, its input is dropped, a reopen is refused', async () => {
    let offset = 0
    const clock = { ...makeClock(), now: () => Date.now() + offset }
    const own = await startStreamServer(t.server.db, { tokenCheckMs: 50 }, clock)
    try {
      const demo = await loginToken(t.base, '13800138000')
      // 880002 has 2 days and 5 hours left
      const ready = await connectCard(t.base, demo.token, 880002)
      const deviceId = await deviceOf(880002)
      const a = await openCard(own.url, 880002, ready.cardToken)
      expect(answer(a, 880002)).toBe('opened')

      offset = 3 * DAY
      expect(await closedWith(a, 880002)).toBe('expired')
      // touch input on the closed channel: read (the pong after it proves it), applied to nothing
      const seq = own.stream.phoneState(deviceId)?.inputSeq ?? 0
      a.control(880002, touch(0, 100, 100, 540, 960))
      a.control(880002, touch(1, 100, 100, 540, 960))
      a.send({ op: 'ping', t: 7 })
      await a.until(() => a.texts.some((m) => m.op === 'pong'), 'the pong')
      expect(own.stream.phoneState(deviceId)?.inputSeq ?? 0).toBe(seq)
      expect(await tryOpen(own.url, 880002, ready.cardToken)).toBe('expired')

      // the purge deletes the tokens of the expired device (and those past their session's expiry), not others'
      const live = await connectCard(t.base, demo.token, 880001)
      await db().updateTable('device_sessions').set({ expires_at: new Date(Date.now() - 1000) })
        .where('card_token', '=', (await connectCard(t.base, demo.token, 880001)).cardToken).execute()
      const before = await db().selectFrom('device_sessions').select('card_token').execute()
      const purged = await purgeCardTokens(db(), clock.now())
      expect(purged).toBeGreaterThanOrEqual(2)
      expect(await tokenRows(ready.cardToken)).toBe(0)
      expect(await tokenRows(live.cardToken)).toBe(1)
      expect((await db().selectFrom('device_sessions').select('card_token').execute()).length).toBe(before.length - purged)
      a.close()
    } finally {
      await own.close()
    }
  })

  it('at removeAuth: the grantee\'s channel closes with accessRemoved and a reopen with its old token is refused', async () => {
    const partner = await loginToken(t.base, '13700137000')
    const demo = await loginToken(t.base, '13800138000')
    const old = await connectCard(t.base, partner.token, 880005)
    const a = await openCard(t.base, 880005, old.cardToken)
    expect(answer(a, 880005)).toBe('opened')
    const record = await db().selectFrom('device_auth_records as r').innerJoin('devices as d', 'd.id', 'r.device_id')
      .select('r.id').where('d.user_card_id', '=', 880005).where('r.status', '=', 0).executeTakeFirstOrThrow()
    expect((await api(t.base, 'PUT', catalogue.cancelPhoneAuth.path, { token: demo.token, body: { id: record.id } })).body.status).toBe(0)
    expect(await closedWith(a, 880005)).toBe('accessRemoved')
    expect(await tryOpen(t.base, 880005, old.cardToken)).toBe('refused')
    a.close()
  })

  it('at a transfer: the old owner\'s channel closes with accessRemoved and a reopen with its old token is refused', async () => {
    const fleet = await loginToken(t.base, '13600136000')
    const old = await connectCard(t.base, fleet.token, 890001)
    const a = await openCard(t.base, 890001, old.cardToken)
    expect(answer(a, 890001)).toBe('opened')
    const moved = await api(t.base, 'POST', catalogue.transferDevices.path, { token: fleet.token, body: { userCardIds: [890001], phone: '13700137000' } })
    expect(moved.body.status).toBe(0)
    expect(await closedWith(a, 890001)).toBe('accessRemoved')
    expect(await tryOpen(t.base, 890001, old.cardToken)).toBe('refused')
    a.close()
  })

  it('at a factory reset: the channel closes with restarting, and once the phone is up again the old token is refused; a new connect opens it', async () => {
    const fleet = await loginToken(t.base, '13600136000')
    const old = await connectCard(t.base, fleet.token, 890003)
    const a = await openCard(t.base, 890003, old.cardToken)
    expect(answer(a, 890003)).toBe('opened')
    const reset = await api(t.base, 'GET', `${catalogue.resetDevice.path}?userCardId=890003`, { token: fleet.token })
    expect(reset.body.status).toBe(0)
    expect(await closedWith(a, 890003)).toBe('restarting')
    // the restart ends (as the busy window would)
    await db().updateTable('device_runtime').set({ busy_until: new Date(Date.now() - 1000) }).where('device_id', '=', await deviceOf(890003)).execute()
    expect(await tryOpen(t.base, 890003, old.cardToken)).toBe('refused')
    const fresh = await connectCard(t.base, fleet.token, 890003)
    expect(await tryOpen(t.base, 890003, fresh.cardToken)).toBe('opened')
    a.close()
  })

  it('connect binds the token to the caller\'s session and its expiry', async () => {
    const demo = await loginToken(t.base, '13800138000')
    const ready = await connectCard(t.base, demo.token, 880001)
    const row = await db().selectFrom('device_sessions').innerJoin('sessions', 'sessions.token', 'device_sessions.session_token')
      .select(['device_sessions.expires_at', 'sessions.expires_at as session_expires_at', 'sessions.token'])
      .where('device_sessions.card_token', '=', ready.cardToken).executeTakeFirstOrThrow()
    expect(row.token).toBe(demo.token)
    expect(new Date(row.expires_at).getTime()).toBe(new Date(row.session_expires_at).getTime())
  })
})
