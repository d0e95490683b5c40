// The WeChat mini program's login on the reference server (worker/protocol/applet.ts). A real backend asks WeChat's
// code2session for the openId and session key of a wx.login code; this one is its own simulated WeChat: operators
// (and tests) issue a code for an openId with `issueAppletCode`, and `encryptPhoneFor` seals a phone number the way
// WeChat's getPhoneNumber does (AES-128-CBC under the session key, with the app id as watermark). The session key
// never leaves the server; the login trusts only a phone this server decrypted for that openId within 10 minutes of
// the code exchange. The openId is an identifier, never a credential (issue 22 finding 3): the exchange hands out a
// one-time login ticket (kept as a digest) that the phone step and the login must show, and the login spends the
// exchange (its row goes), so neither the login nor the phone step can be replayed and nothing renews the window.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ColumnType, Kysely } from 'kysely'
import { appletEndpoints } from '../../worker/protocol/applet.ts'
import { isMobile } from '../../worker/protocol/validators.ts'
import type { ServerContext } from '../context.ts'
import { hashPasswordMd5, md5Hex } from '../crypto/password.ts'
import type { Database } from '../db/schema.ts'
import { DomainError, Status } from '../http/errors.ts'
import { inviterOf, newUsername } from './account-routes.ts'
import { sessionDb } from './tables.ts'
import { openSession } from './tokens.ts'

interface AppletCodesTable {
  code: string
  open_id: string
  session_key: string
  expires_at: ColumnType<Date, Date, Date>
  used_at: ColumnType<Date | null, Date | undefined, Date>
}
interface AppletSessionsTable {
  open_id: string
  session_key: string
  phone: string | null
  phone_verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** the time of the code exchange. */
  updated_at: ColumnType<Date, Date | undefined, Date>
  /** sha-256 of the exchange's login ticket (090_session_hardening). */
  ticket_digest: string | null
}
type AppletDb = Kysely<Database & { applet_codes: AppletCodesTable; applet_sessions: AppletSessionsTable }>
const appletDb = (db: Kysely<Database>): AppletDb => db.withTables<{ applet_codes: AppletCodesTable; applet_sessions: AppletSessionsTable }>()

/** The app id the simulated WeChat stamps on what it encrypts, as WeChat stamps the mini program's. */
export const APPLET_APP_ID = 'wx-reference-server'
const CODE_MS = 5 * 60_000
/** how long after the code exchange its phone step and login are accepted. */
const PHONE_MS = 10 * 60_000

const digest = (ticket: string): string => createHash('sha256').update(ticket, 'utf8').digest('hex')

export const AppletMsg = {
  code: '微信登录凭证无效或已过期，请重新进入小程序',
  session: '微信会话已失效，请重新进入小程序',
  data: '手机号信息解密失败，请重新授权',
  phone: '请先授权获取手机号',
} as const

/** The simulated WeChat's wx.login: a one-use code for `openId` (a new openId when none is given). */
export const issueAppletCode = async (db: Kysely<Database>, openId = `o${randomBytes(12).toString('base64url')}`, now = Date.now()) => {
  const code = randomBytes(16).toString('hex')
  const sessionKey = randomBytes(16).toString('base64')
  await appletDb(db).insertInto('applet_codes')
    .values({ code, open_id: openId, session_key: sessionKey, expires_at: new Date(now + CODE_MS) }).execute()
  return { code, openId, sessionKey }
}

/** The simulated WeChat's getPhoneNumber: the phone sealed under the session key, as WeChat's encryptedData and iv. */
export const encryptPhoneFor = (sessionKey: string, phone: string, appId = APPLET_APP_ID) => {
  const iv = randomBytes(16)
  const cipher = createCipheriv('aes-128-cbc', Buffer.from(sessionKey, 'base64'), iv)
  const plain = JSON.stringify({ phoneNumber: phone, purePhoneNumber: phone, countryCode: '86', watermark: { appid: appId, timestamp: Math.floor(Date.now() / 1000) } })
  return { encryptedData: Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64'), iv: iv.toString('base64') }
}

const decryptPhone = (sessionKey: string, encryptedData: string, iv: string): string => {
  try {
    const decipher = createDecipheriv('aes-128-cbc', Buffer.from(sessionKey, 'base64'), Buffer.from(iv, 'base64'))
    const plain = Buffer.concat([decipher.update(Buffer.from(encryptedData, 'base64')), decipher.final()]).toString('utf8')
    const data = JSON.parse(plain) as { purePhoneNumber?: unknown; watermark?: { appid?: unknown } }
    if (data.watermark?.appid !== APPLET_APP_ID || typeof data.purePhoneNumber !== 'string' || !isMobile(data.purePhoneNumber)) throw new Error('bad data')
    return data.purePhoneNumber
  } catch {
    throw new DomainError(Status.invalidPayload, AppletMsg.data)
  }
}

export const registerAppletRoutes = (ctx: ServerContext, now: () => number = Date.now): void => {
  const { app, publicRoute } = ctx
  const db = appletDb(ctx.db)
  const users = sessionDb(ctx.db)

  /** the exchange of this openId, if `ticket` is its login ticket and it is within the window. */
  const sessionOf = async (openId: string, ticket: string) => {
    const row = await db.selectFrom('applet_sessions').selectAll().where('open_id', '=', openId).executeTakeFirst()
    const want = row?.ticket_digest ? Buffer.from(row.ticket_digest, 'hex') : Buffer.alloc(32)
    const shown = Buffer.from(digest(ticket), 'hex')
    if (!row || !row.ticket_digest || !timingSafeEqual(want, shown)) throw new DomainError(Status.forbidden, AppletMsg.session)
    if (now() - new Date(row.updated_at).getTime() > PHONE_MS) throw new DomainError(Status.forbidden, AppletMsg.session)
    return row
  }

  publicRoute(app, appletEndpoints.getAppletsKey, async ({ payload }) => {
    const at = new Date(now())
    // one use: the row is claimed by the update that marks it
    const row = await db.updateTable('applet_codes').set({ used_at: at })
      .where('code', '=', payload.code).where('used_at', 'is', null).where('expires_at', '>', at)
      .returning(['open_id', 'session_key']).executeTakeFirst()
    if (!row) throw new DomainError(Status.forbidden, AppletMsg.code)
    const loginTicket = randomBytes(24).toString('hex')
    // a new exchange replaces the openId's earlier one (its ticket stops working)
    const values = { session_key: row.session_key, phone: null, phone_verified_at: null, updated_at: at, ticket_digest: digest(loginTicket) }
    await db.insertInto('applet_sessions').values({ open_id: row.open_id, ...values })
      .onConflict((oc) => oc.column('open_id').doUpdateSet(values)).execute()
    return { openId: row.open_id, loginTicket }
  })

  publicRoute(app, appletEndpoints.getAppletsData, async ({ payload }) => {
    const session = await sessionOf(payload.openId, payload.loginTicket)
    const phone = decryptPhone(session.session_key, payload.encryptedData, payload.iv)
    // the window stays the exchange's: verifying again renews nothing
    await db.updateTable('applet_sessions').set({ phone, phone_verified_at: new Date(now()) })
      .where('open_id', '=', payload.openId).where('ticket_digest', '=', session.ticket_digest).execute()
    return { phone }
  })

  publicRoute(app, appletEndpoints.appletLogin, async ({ payload }) => {
    const session = await sessionOf(payload.openId, payload.loginTicket)
    if (session.phone === null || session.phone_verified_at === null) throw new DomainError(Status.forbidden, AppletMsg.phone)
    // spent here, once: of two logins with the same ticket only the one that deletes the row goes on
    const spent = await db.deleteFrom('applet_sessions')
      .where('open_id', '=', payload.openId).where('ticket_digest', '=', session.ticket_digest).where('phone', '=', session.phone)
      .returning('phone').executeTakeFirst()
    if (!spent?.phone) throw new DomainError(Status.forbidden, AppletMsg.session)
    const phone = spent.phone
    const existing = await users.selectFrom('users').select(['id', 'username', 'phone', 'user_type']).where('phone', '=', phone).executeTakeFirst()
    const user = existing ?? await users.insertInto('users')
      .values({
        username: await newUsername(users), phone, user_type: 1, nick_name: '', inviter: await inviterOf(users, payload.inviteCode),
        // like an SMS quick login's new account: no usable password until one is set with 忘记密码
        password_hash: await hashPasswordMd5(md5Hex(randomBytes(16).toString('hex'))),
      })
      .returning(['id', 'username', 'phone', 'user_type']).executeTakeFirstOrThrow()
    const token = await openSession(ctx, user.id, payload.uuid)
    return { token, username: user.username, userType: user.user_type, phone: user.phone }
  })
}
