// SMS-code endpoints: send a code, quick login (creates the account of an unknown phone), registration with a
// password, password reset, phone binding; plus the user agreement. Every rule fails with a Chinese msg.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { SmsPurpose } from '../../worker/protocol/session.ts'
import { isMobile } from '../../worker/protocol/validators.ts'
import type { ServerContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import type { LoginKey } from '../crypto/login-key.ts'
import { hashPasswordMd5, md5Hex, verifyPasswordMd5 } from '../crypto/password.ts'
import { DomainError, notFound } from '../http/errors.ts'
import { AuthMsg, AuthStatus } from './messages.ts'
import { clientAddress } from '../http/client-address.ts'
import { createThrottle, throttleKey } from '../security/throttle.ts'
import { texts } from '../security/texts.ts'
import { createSmsGuard } from './sms-guard.ts'
import { closeRevoked, openSession, revokeSessions, sessionDigest } from './tokens.ts'
import { sessionDb, type SessionDb } from './tables.ts'

const MD5_HEX = /^[0-9a-f]{32}$/

const maskPhone = (phone: string): string => `${phone.slice(0, 3)}****${phone.slice(-4)}`

const requireMobile = (phone: string): string => {
  const value = phone.trim()
  if (!isMobile(value)) throw new DomainError(AuthStatus.phoneInvalid, AuthMsg.phoneInvalid)
  return value
}

const userByPhone = (db: SessionDb, phone: string) =>
  db.selectFrom('users').select(['id', 'username', 'phone', 'user_type', 'inviter']).where('phone', '=', phone).executeTakeFirst()

/** The inviter named by an invitation code (a username); an unknown non-empty code is refused. */
export const inviterOf = async (db: SessionDb, inviteCode: string | undefined): Promise<string | null> => {
  const code = inviteCode?.trim() ?? ''
  if (code === '') return null
  const row = await db.selectFrom('users').select('username').where('username', '=', code).executeTakeFirst()
  if (!row) throw new DomainError(AuthStatus.inviteUnknown, AuthMsg.inviteUnknown)
  return row.username
}

/** A fresh username short enough to be an invitation code (api-notes: at most 8 characters). */
export const newUsername = async (db: SessionDb): Promise<string> => {
  for (;;) {
    const name = `u${randomBytes(8).readBigUInt64BE().toString(36).slice(0, 7)}`
    const taken = await db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst()
    if (!taken) return name
  }
}

export const registerAccountRoutes = (ctx: ServerContext, loginKey: LoginKey, log: (line: string) => void = (line) => console.log(line)): void => {
  const { app, route, publicRoute } = ctx
  const db = sessionDb(ctx.db)
  const throttle = createThrottle(ctx.db)
  const sms = createSmsGuard(db, throttle)
  const tickets = ctx.db.withTables<{ account_security_tickets: { ticket: string; user_id: number; expires_at: Date } }>()

  const decryptedMd5 = (password: string): string => {
    const md5 = loginKey.decrypt(password)?.toLowerCase() ?? ''
    if (!MD5_HEX.test(md5)) throw new DomainError(AuthStatus.passwordInvalid, AuthMsg.passwordInvalid)
    return md5
  }

  const createUser = async (phone: string, passwordMd5: string, inviter: string | null) => {
    const username = await newUsername(db)
    return db.insertInto('users')
      .values({ username, phone, password_hash: await hashPasswordMd5(passwordMd5), user_type: 1, nick_name: '', inviter })
      .returning(['id', 'username', 'phone', 'user_type'])
      .executeTakeFirstOrThrow()
  }

  const loggedIn = async (user: { id: number; username: string; phone: string; user_type: number }, uuid: string) => {
    const token = await openSession(ctx, user.id, uuid)
    return { token, username: user.username, userType: user.user_type, phone: user.phone }
  }

  // The send answers alike for registered and unregistered numbers (issue 22 finding 7): whether a number has an
  // account (registration, 忘记密码) or another account's binding is told only after its code was consumed, i.e. to
  // whoever holds that phone. The throttle runs first (sms-guard.ts).
  publicRoute(app, catalogue.sendSmsCode, async ({ payload, user, c }) => {
    const phone = requireMobile(payload.phone)
    if (payload.authorizationType === SmsPurpose.bindPhone && !user) throw new DomainError(AuthStatus.loginRequired, AuthMsg.loginRequired)
    await sms.send(phone, clientAddress(c), payload.authorizationType, log)
    return null
  })

  publicRoute(app, catalogue.quickLogin, async ({ payload, c }) => {
    const phone = requireMobile(payload.phone)
    const existing = await userByPhone(db, phone)
    const inviter = existing ? null : await inviterOf(db, payload.inviteCode)
    await sms.consume(phone, clientAddress(c), SmsPurpose.quickLogin, payload.code.trim())
    // an unknown phone gets an account; it has no usable password until one is set with 忘记密码
    const user = existing ?? (await createUser(phone, md5Hex(randomBytes(16).toString('hex')), inviter))
    return loggedIn(user, payload.uuid)
  })

  publicRoute(app, catalogue.register, async ({ payload, c }) => {
    const phone = requireMobile(payload.phone)
    const passwordMd5 = decryptedMd5(payload.password)
    const inviter = await inviterOf(db, payload.inviteCode)
    // the code first: 该手机号已注册 is for the phone's holder only
    await sms.consume(phone, clientAddress(c), SmsPurpose.register, payload.code.trim())
    if (await userByPhone(db, phone)) throw new DomainError(AuthStatus.phoneRegistered, AuthMsg.phoneRegistered)
    return loggedIn(await createUser(phone, passwordMd5, inviter), payload.uuid)
  })

  publicRoute(app, catalogue.passwordBackNew, async ({ payload, c }) => {
    const phone = requireMobile(payload.phone)
    const passwordMd5 = decryptedMd5(payload.password)
    // the code first: 该手机号未注册 is for the phone's holder only
    await sms.consume(phone, clientAddress(c), SmsPurpose.forgotPassword, payload.code.trim())
    const user = await userByPhone(db, phone)
    if (!user) throw new DomainError(AuthStatus.phoneUnregistered, AuthMsg.phoneUnregistered)
    const passwordHash = await hashPasswordMd5(passwordMd5)
    // a new password ends every session opened with the old one: both or neither
    const revoked = await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute()
      return revokeSessions(trx, user.id)
    })
    await closeRevoked(ctx, revoked)
    return null
  })

  // Binding or changing the account's phone (issue 22 finding 2). A token alone is not enough to change a bound phone
  // (a stolen token would otherwise rebind it, then take the account with 忘记密码): the owner proves the old phone
  // (a checkPhoneCode ticket: an SMS code sent to it) or the password. Every other session of the account ends (its
  // sockets are told why), and the old phone gets a notice. An account the guard holds for binding (userType 2 or a
  // phone that is not a number, §5) has no phone to prove.
  route(app, catalogue.updateUserPhone, async ({ payload, user, c }) => {
    const phone = requireMobile(payload.phone)
    const address = clientAddress(c)
    const bound = /^\d+$/.test(user.phone) && Number(user.userType) !== 2
    const ticket = payload.ticket?.trim() ?? ''
    if (bound) {
      if (ticket !== '') {
        const live = await tickets.selectFrom('account_security_tickets').select('ticket')
          .where('ticket', '=', ticket).where('user_id', '=', user.id).where('expires_at', '>', new Date()).executeTakeFirst()
        if (!live) throw new DomainError(AuthStatus.ownerProofWrong, AuthMsg.ownerProofWrong)
      } else if (payload.password !== undefined) {
        const keys = [throttleKey('loginAccount', `user-${user.id}`), throttleKey('loginClient', `user-${user.id}:session-${sessionDigest(user.token).slice(0, 16)}`), throttleKey('loginAddress', address)]
        await throttle.guard(keys.slice(1), texts.loginThrottled)
        const row = await db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow()
        const md5 = loginKey.decrypt(payload.password)?.toLowerCase() ?? ''
        if (!MD5_HEX.test(md5) || !(await verifyPasswordMd5(md5, row.password_hash))) {
          await throttle.record(keys)
          throw new DomainError(AuthStatus.passwordWrong, AuthMsg.passwordWrong)
        }
      } else {
        throw new DomainError(AuthStatus.ownerProofRequired, AuthMsg.ownerProofRequired)
      }
    }
    await sms.consume(phone, address, SmsPurpose.bindPhone, payload.code.trim())
    // after the code: whether a number is another account's is told only to whoever holds it (finding 7)
    const owner = await userByPhone(db, phone)
    if (owner && owner.id !== user.id) throw new DomainError(AuthStatus.phoneTaken, AuthMsg.phoneTaken)
    const revoked = await ctx.db.transaction().execute(async (trx) => {
      if (bound && ticket !== '') {
        // spent once, with the change: a ticket that went meanwhile changes nothing
        const spent = await trx.withTables<{ account_security_tickets: { ticket: string; user_id: number; expires_at: Date } }>().deleteFrom('account_security_tickets')
          .where('ticket', '=', ticket).where('user_id', '=', user.id).where('expires_at', '>', new Date())
          .returning('ticket').executeTakeFirst()
        if (!spent) throw new DomainError(AuthStatus.ownerProofWrong, AuthMsg.ownerProofWrong)
      }
      await trx.updateTable('users').set({ phone, user_type: 1 }).where('id', '=', user.id).execute()
      return (await trx.deleteFrom('sessions').where('user_id', '=', user.id).where('token', '!=', user.token)
        .returning('token').execute()).map((r) => r.token)
    })
    await closeRevoked(ctx, revoked, JSON.stringify({ type: 'forcedOfflineMsg', data: { content: AuthMsg.phoneChangedOffline } }))
    if (bound && user.phone !== phone) log(`[sms] ${user.phone} ${AuthMsg.phoneChangedNotice(maskPhone(phone))}`)
    return null
  })

  publicRoute(app, catalogue.agreementContent, async () => {
    const row = await db.selectFrom('agreements').select(['title', 'content']).where('id', '=', 1).executeTakeFirst()
    if (!row) throw notFound('用户协议')
    return row
  })
}
