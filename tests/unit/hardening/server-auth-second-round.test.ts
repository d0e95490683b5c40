// Issue 22, second round: a token alone cannot change the account's phone (2); the mini program's openId is no
// credential (3); strangers cannot lock the owner's password login (6); SMS sends do not tell registered numbers
// apart (7); at most MAX_SESSIONS_PER_ACCOUNT sessions, 6013 for the oldest, expired sessions purged, a push socket
// closed at its token's expiry, websockets refused to pages of other origins (15). Runs on PGlite and PostgreSQL.
import { sql } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { runOps } from '../../../server/ops.ts'
import { CLOSE_UNAUTHORIZED } from '../../../server/push/local-sockets.ts'
import { Policies, THROTTLED_STATUS } from '../../../server/security/throttle.ts'
import { encryptPhoneFor, issueAppletCode, AppletMsg } from '../../../server/session/applet.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { MAX_SESSIONS_PER_ACCOUNT, purgeSessions, sessionDigest } from '../../../server/session/tokens.ts'
import { STREAM_PATH } from '../../../worker/protocol/stream.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { api, encryptPassword, login, openSocket, pushUrl, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

const SEND = '/api/message/v5/phone/send'
const REGISTER = '/api/user/v5/client/register/encryptionPassWord'
const RESET = '/api/user/v5/user/passwordBackNew'
const BIND = '/api/user/v1/client/personalInfo/updateUserPhone'
const CHECK = '/api/user/v5/user/checkPhoneCode'
const PERSONAL = '/api/user/v1/client/personalInfo'
const QUICK = '/api/user/v5/clientLogin/applet/quickLogin'

type LoginData = { token: string; username: string; userType: number; phone: string }

const send = (phone: string, authorizationType: number, token?: string) =>
  api(t.base, 'POST', SEND, { token, body: { type: 'common', authorizationType, phone } })
/** lets the phone be sent a code again at once (what waiting 60 s does). */
const rewind = (phone: string) => sessionDb(t.server.db).updateTable('sms_codes')
  .set({ created_at: sql`created_at - interval '61 seconds'` } as never).where('phone', '=', phone).execute()
const codeFor = async (phone: string, purpose: number, token?: string): Promise<string> => {
  await rewind(phone)
  const sent = await send(phone, purpose, token)
  if (sent.body.status !== 0) throw new Error(`send failed: ${sent.text}`)
  return runOps(['sms', phone], t.ops)
}
const pem = async () => (await api<string>(t.base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
const forgetThrottle = () => t.server.db.withTables<{ auth_throttle: { key: string } }>().deleteFrom('auth_throttle').execute()
/** A new account of `phone` (password `abc123`), signed in from client `uuid`. */
const registered = async (phone: string, uuid = 'u-owner'): Promise<LoginData> => {
  const code = await codeFor(phone, SmsPurpose.register)
  const r = await api<LoginData>(t.base, 'POST', REGISTER, { body: { phone, code, password: encryptPassword(await pem(), 'abc123'), uuid } })
  if (r.body.status !== 0) throw new Error(`register failed: ${r.text}`)
  return r.body.data
}
const socketOf = async (session: { token: string; username: string }) => {
  const socket = openSocket(pushUrl(t.base, { deviceId: 'd', username: session.username, Authorization: session.token }))
  await socket.opened()
  return socket
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('finding 2: changing a bound phone takes proof of the owner', () => {
  it('a token alone is refused; nothing changes', async () => {
    const victim = await registered('13710000001')
    // the thief, with the token only: a code for their own number, then the bind
    const code = await codeFor('13710000002', SmsPurpose.bindPhone, victim.token)
    const r = await api(t.base, 'POST', BIND, { token: victim.token, body: { phone: '13710000002', code } })
    expect(r.body).toMatchObject({ success: false, msg: '请先验证原手机号' })
    expect((await api<LoginData>(t.base, 'GET', PERSONAL, { token: victim.token })).body.data.phone).toBe('13710000001')
    // a made-up ticket is no proof either
    const forged = await api(t.base, 'POST', BIND, { token: victim.token, body: { phone: '13710000002', code, ticket: 'f'.repeat(48) } })
    expect(forged.body.msg).toBe('原手机号验证已失效，请重新获取验证码')
  })

  it('with the old phone\'s code: changed once, the other sessions end (told why), the old phone is notified', async () => {
    const owner = await registered('13710000011', 'u-a')
    const other = (await login(t.base, '13710000011', 'abc123', { uuid: 'u-b' })).body.data
    const otherSocket = await socketOf(other)
    const logged: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)))
    const oldCode = await codeFor('13710000011', SmsPurpose.bindPhone, owner.token)
    const checked = await api<{ ticket: string }>(t.base, 'POST', CHECK, { token: owner.token, body: { code: oldCode } })
    const ticket = checked.body.data.ticket
    const code = await codeFor('13710000012', SmsPurpose.bindPhone, owner.token)
    const r = await api(t.base, 'POST', BIND, { token: owner.token, body: { phone: '13710000012', code, ticket } })
    expect(r.body.status).toBe(0)
    expect((await api<LoginData>(t.base, 'GET', PERSONAL, { token: owner.token })).body.data.phone).toBe('13710000012')
    expect((await api(t.base, 'GET', PERSONAL, { token: other.token })).http).toBe(401)
    await otherSocket.until(() => otherSocket.closeCode !== null)
    expect(otherSocket.closeCode).toBe(CLOSE_UNAUTHORIZED)
    expect(otherSocket.frames).toContainEqual({ type: 'forcedOfflineMsg', data: { content: '账号绑定的手机号已更换，请重新登录' } })
    expect(logged.some((l) => l.startsWith('[sms] 13710000011 ') && l.includes('137****0012'))).toBe(true)
    // the ticket was spent
    const again = await codeFor('13710000013', SmsPurpose.bindPhone, owner.token)
    expect((await api(t.base, 'POST', BIND, { token: owner.token, body: { phone: '13710000013', code: again, ticket } })).body.msg)
      .toBe('原手机号验证已失效，请重新获取验证码')
  })

  it('with the login password instead; a wrong one is refused', async () => {
    const owner = await registered('13710000021')
    const code = await codeFor('13710000022', SmsPurpose.bindPhone, owner.token)
    const wrong = await api(t.base, 'POST', BIND, { token: owner.token, body: { phone: '13710000022', code, password: encryptPassword(await pem(), 'nope123') } })
    expect(wrong.body.msg).toBe('登录密码错误')
    const right = await api(t.base, 'POST', BIND, { token: owner.token, body: { phone: '13710000022', code, password: encryptPassword(await pem(), 'abc123') } })
    expect(right.body.status).toBe(0)
  })
})

describe('finding 3: the mini program login is bound to the code exchange and spent', () => {
  const KEY = '/api/user/v4/applets/getAppletsKey'
  const DATA = '/api/user/v4/applets/getAppletsData'
  const LOGIN = '/api/user/v5/clientLogin/applet/login'

  it('a second client with the openId alone (or a wrong ticket) gets nothing; a login is not replayed', async () => {
    const wx = await issueAppletCode(t.server.db)
    const key = await api<{ openId: string; loginTicket: string }>(t.base, 'POST', KEY, { body: { code: wx.code } })
    const { openId, loginTicket } = key.body.data
    expect(loginTicket).toMatch(/^[0-9a-f]{48}$/)
    const sealed = encryptPhoneFor(wx.sessionKey, '13800138000')
    expect((await api(t.base, 'POST', DATA, { body: { openId, loginTicket, ...sealed } })).body.status).toBe(0)
    // the attacker knows the openId only
    expect((await api(t.base, 'POST', LOGIN, { body: { openId, uuid: 'evil' } })).body.success).toBe(false)
    expect((await api(t.base, 'POST', LOGIN, { body: { openId, loginTicket: '0'.repeat(48), uuid: 'evil' } })).body)
      .toMatchObject({ success: false, msg: AppletMsg.session })
    const first = await api<LoginData>(t.base, 'POST', LOGIN, { body: { openId, loginTicket, uuid: 'u1' } })
    expect(first.body.data.username).toBe('demo')
    // spent: the same ticket (or the phone step again) signs nobody in
    expect((await api(t.base, 'POST', LOGIN, { body: { openId, loginTicket, uuid: 'u1' } })).body).toMatchObject({ success: false, msg: AppletMsg.session })
    expect((await api(t.base, 'POST', DATA, { body: { openId, loginTicket, ...sealed } })).body).toMatchObject({ success: false, msg: AppletMsg.session })
  })

  it('verifying the phone again does not renew the window of the exchange', async () => {
    const wx = await issueAppletCode(t.server.db)
    const { openId, loginTicket } = (await api<{ openId: string; loginTicket: string }>(t.base, 'POST', KEY, { body: { code: wx.code } })).body.data
    // the exchange was 11 minutes ago
    await t.server.db.withTables<{ applet_sessions: { open_id: string; updated_at: Date } }>().updateTable('applet_sessions')
      .set({ updated_at: new Date(Date.now() - 11 * 60_000) }).where('open_id', '=', openId).execute()
    const again = await api(t.base, 'POST', DATA, { body: { openId, loginTicket, ...encryptPhoneFor(wx.sessionKey, '13800138000') } })
    expect(again.body).toMatchObject({ success: false, msg: AppletMsg.session })
    expect((await api(t.base, 'POST', LOGIN, { body: { openId, loginTicket, uuid: 'u1' } })).body).toMatchObject({ success: false, msg: AppletMsg.session })
  })
})

describe('finding 6: strangers cannot lock the owner out of their usual client', () => {
  it('after many wrong guesses from other clients: the owner\'s browser signs in; a new client is told to use SMS', async () => {
    await forgetThrottle()
    await registered('13720000001', 'u-usual')
    for (let i = 0; i < 8; i++) {
      const r = await login(t.base, '13720000001', `Wrong${i}pw`, { uuid: `stranger-${i}` })
      // fresh uuids do not get fresh budgets: the account's count blocks unknown clients after 5
      if (i < Policies.loginAccount.free) expect(r.body.msg).toBe('账号或密码错误')
      else expect(r.body).toMatchObject({ status: THROTTLED_STATUS, msg: expect.stringContaining('或使用验证码登录') })
    }
    const unknown = await login(t.base, '13720000001', 'abc123', { uuid: 'new-laptop' })
    expect(unknown.body.status).toBe(THROTTLED_STATUS)
    expect(unknown.body.msg).toMatch(/^密码错误次数过多，请\d+(秒|分钟)后再试，或使用验证码登录$/)
    const owner = await login(t.base, '13720000001', 'abc123', { uuid: 'u-usual' })
    expect(owner.body.status).toBe(0)
    // and SMS login does work for the new client, which then is a usual one
    const code = await codeFor('13720000001', SmsPurpose.quickLogin)
    expect((await api(t.base, 'POST', QUICK, { body: { phone: '13720000001', code, uuid: 'new-laptop' } })).body.status).toBe(0)
    expect((await login(t.base, '13720000001', 'abc123', { uuid: 'new-laptop' })).body.status).toBe(0)
  })

  it('the usual client is still limited by its own wrong guesses', async () => {
    await forgetThrottle()
    await registered('13720000002', 'u-mine')
    for (let i = 0; i < Policies.loginClient.free; i++) await login(t.base, '13720000002', 'Wrong0pw', { uuid: 'u-mine' })
    expect((await login(t.base, '13720000002', 'abc123', { uuid: 'u-mine' })).body.status).toBe(THROTTLED_STATUS)
    await forgetThrottle()
  })
})

describe('finding 7: an SMS send does not tell registered numbers apart', () => {
  it('register and 忘记密码 sends answer alike; the rule is told after the code, to its holder', async () => {
    await forgetThrottle()
    const registeredPhone = '13800138000'
    const freePhone = '13730000001'
    for (const purpose of [SmsPurpose.register, SmsPurpose.forgotPassword]) {
      await rewind(registeredPhone)
      await rewind(freePhone)
      const a = await send(registeredPhone, purpose)
      const b = await send(freePhone, purpose)
      expect([a.body.status, a.body.msg]).toEqual([b.body.status, b.body.msg])
      expect(a.body.status).toBe(0)
    }
    // without the code: the same answer for both
    const resetFree = await api(t.base, 'PUT', RESET, { body: { phone: '13730000002', code: '123456', password: encryptPassword(await pem(), 'x1y2z3') } })
    const resetTaken = await api(t.base, 'PUT', RESET, { body: { phone: '13600136000', code: '123456', password: encryptPassword(await pem(), 'x1y2z3') } })
    expect(resetFree.body.msg).toBe('请先获取验证码')
    expect(resetTaken.body.msg).toBe('请先获取验证码')
    // with it: the holder learns it
    const code = await codeFor(freePhone, SmsPurpose.forgotPassword)
    expect((await api(t.base, 'PUT', RESET, { body: { phone: freePhone, code, password: encryptPassword(await pem(), 'x1y2z3') } })).body.msg).toBe('该手机号未注册')
    const regCode = await codeFor(registeredPhone, SmsPurpose.register)
    const reg = await api(t.base, 'POST', REGISTER, { body: { phone: registeredPhone, code: regCode, password: encryptPassword(await pem(), 'abc123'), uuid: 'u' } })
    expect(reg.body.msg).toBe('该手机号已注册')
  })

  it('the throttle runs first: sends for a registered number count', async () => {
    await forgetThrottle()
    const phone = '13500135000'
    for (let i = 0; i < Policies.smsSendPhone.free; i++) {
      await rewind(phone)
      expect((await send(phone, SmsPurpose.register)).body.status).toBe(0)
    }
    await rewind(phone)
    expect((await send(phone, SmsPurpose.register)).body.status).toBe(THROTTLED_STATUS)
    await forgetThrottle()
  })
})

describe('finding 15: concurrent sessions, purge, expiry and origins', () => {
  it(`a login past ${MAX_SESSIONS_PER_ACCOUNT} sessions ends the oldest: 6013 to its calls, a forcedOfflineMsg to its socket`, async () => {
    await forgetThrottle()
    const first = await registered('13740000001', 'c0')
    const firstSocket = await socketOf(first)
    const later: LoginData[] = []
    for (let i = 1; i < MAX_SESSIONS_PER_ACCOUNT; i++) later.push((await login(t.base, '13740000001', 'abc123', { uuid: `c${i}` })).body.data)
    expect((await api(t.base, 'GET', PERSONAL, { token: first.token })).body.status).toBe(0)
    const newest = (await login(t.base, '13740000001', 'abc123', { uuid: 'c-new' })).body.data
    const ended = await api(t.base, 'GET', PERSONAL, { token: first.token })
    expect(ended.http).toBe(200)
    expect(ended.body).toMatchObject({ status: 6013, success: false, msg: '账号已在别处登录！' })
    await firstSocket.until(() => firstSocket.closeCode !== null)
    expect(firstSocket.closeCode).toBe(CLOSE_UNAUTHORIZED)
    expect(firstSocket.frames).toContainEqual({ type: 'forcedOfflineMsg', data: { content: '账号已在别处登录！' } })
    for (const s of [...later, newest]) expect((await api(t.base, 'GET', PERSONAL, { token: s.token })).body.status).toBe(0)
    // a logged-out token is unknown (401), not 6013
    await api(t.base, 'POST', '/api/user/v5/visitDetailed/operationVisitDetailed', { token: newest.token, body: { uuid: 'c-new', operationType: 2 } })
    expect((await api(t.base, 'GET', PERSONAL, { token: newest.token })).http).toBe(401)
  })

  it('expired sessions and old records of ended ones are purged; live ones stay', async () => {
    const live = await registered('13740000002', 'p0')
    const old = (await login(t.base, '13740000002', 'abc123', { uuid: 'p1' })).body.data
    await t.server.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token', '=', old.token).execute()
    const hard = t.server.db.withTables<{ ended_sessions: { token_digest: string; user_id: number; forget_at: Date } }>()
    const user = await t.server.db.selectFrom('users').select('id').where('phone', '=', '13740000002').executeTakeFirstOrThrow()
    await hard.insertInto('ended_sessions').values({ token_digest: sessionDigest('gone'), user_id: user.id, forget_at: new Date(Date.now() - 1000) }).execute()
    await purgeSessions(t.server.db)
    const tokens = (await t.server.db.selectFrom('sessions').select('token').where('user_id', '=', user.id).execute()).map((r) => r.token)
    expect(tokens).toEqual([live.token])
    expect(await hard.selectFrom('ended_sessions').select('token_digest').where('token_digest', '=', sessionDigest('gone')).executeTakeFirst()).toBeUndefined()
  })

  it('a push socket closes when its token expires while it is open', async () => {
    const s = await registered('13740000003', 'e0')
    await t.server.db.updateTable('sessions').set({ expires_at: new Date(Date.now() + 1500) }).where('token', '=', s.token).execute()
    const socket = await socketOf(s)
    expect(socket.closeCode).toBeNull()
    await socket.until(() => socket.closeCode !== null, 6_000)
    expect(socket.closeCode).toBe(CLOSE_UNAUTHORIZED)
  })

  /** The HTTP status an upgrade to `path` gets with this Origin (101 when it opened). */
  const upgradeStatus = (path: string, origin?: string) => new Promise<number>((resolve) => {
    const ws = new WebSocket(`${t.base.replace(/^http/, 'ws')}${path}`, origin === undefined ? {} : { origin })
    ws.on('upgrade', () => {
      resolve(101)
      ws.terminate()
    })
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.on('error', () => resolve(0))
  })

  it('both sockets refuse a page of another origin, and take their own origin and no Origin', async () => {
    const s = await registered('13740000004', 'o0')
    const push = `/push?${new URLSearchParams({ deviceId: 'd', username: s.username, Authorization: s.token })}`
    expect(await upgradeStatus(push, 'http://evil.example')).toBe(403)
    expect(await upgradeStatus(push, t.base)).toBe(101)
    expect(await upgradeStatus(push)).toBe(101)
    expect(await upgradeStatus(STREAM_PATH, 'http://evil.example')).toBe(403)
    expect(await upgradeStatus(STREAM_PATH, 'null')).toBe(403)
    expect(await upgradeStatus(STREAM_PATH, t.base)).not.toBe(403)
    expect(await upgradeStatus(STREAM_PATH)).not.toBe(403)
  })
})
