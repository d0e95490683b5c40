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
import { hashPasswordMd5, md5Hex } from '../crypto/password.ts'
import { DomainError, notFound } from '../http/errors.ts'
import { AuthMsg, AuthStatus } from './messages.ts'
import { clientAddress } from '../http/client-address.ts'
import { createThrottle } from '../security/throttle.ts'
import { createSmsGuard } from './sms-guard.ts'
import { closeRevoked, openSession, revokeSessions } from './tokens.ts'
import { sessionDb, type SessionDb } from './tables.ts'

const MD5_HEX = /^[0-9a-f]{32}$/

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

export const registerAccountRoutes = (ctx: ServerContext, loginKey: LoginKey, log: (line: string) => void = console.log): void => {
  const { app, route, publicRoute } = ctx
  const db = sessionDb(ctx.db)
  const sms = createSmsGuard(db, createThrottle(ctx.db))

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
    const token = await openSession(ctx.db, user.id, uuid)
    return { token, username: user.username, userType: user.user_type, phone: user.phone }
  }

  publicRoute(app, catalogue.sendSmsCode, async ({ payload, user, c }) => {
    const phone = requireMobile(payload.phone)
    const owner = await userByPhone(db, phone)
    switch (payload.authorizationType) {
      case SmsPurpose.register:
        if (owner) throw new DomainError(AuthStatus.phoneRegistered, AuthMsg.phoneRegistered)
        break
      case SmsPurpose.forgotPassword:
        if (!owner) throw new DomainError(AuthStatus.phoneUnregistered, AuthMsg.phoneUnregistered)
        break
      case SmsPurpose.bindPhone:
        if (!user) throw new DomainError(AuthStatus.loginRequired, AuthMsg.loginRequired)
        if (owner && owner.id !== user.id) throw new DomainError(AuthStatus.phoneTaken, AuthMsg.phoneTaken)
        break
    }
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
    if (await userByPhone(db, phone)) throw new DomainError(AuthStatus.phoneRegistered, AuthMsg.phoneRegistered)
    const passwordMd5 = decryptedMd5(payload.password)
    const inviter = await inviterOf(db, payload.inviteCode)
    await sms.consume(phone, clientAddress(c), SmsPurpose.register, payload.code.trim())
    return loggedIn(await createUser(phone, passwordMd5, inviter), payload.uuid)
  })

  publicRoute(app, catalogue.passwordBackNew, async ({ payload, c }) => {
    const phone = requireMobile(payload.phone)
    const user = await userByPhone(db, phone)
    if (!user) throw new DomainError(AuthStatus.phoneUnregistered, AuthMsg.phoneUnregistered)
    const passwordMd5 = decryptedMd5(payload.password)
    await sms.consume(phone, clientAddress(c), SmsPurpose.forgotPassword, payload.code.trim())
    const passwordHash = await hashPasswordMd5(passwordMd5)
    // a new password ends every session opened with the old one: both or neither
    const revoked = await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute()
      return revokeSessions(trx, user.id)
    })
    await closeRevoked(ctx, revoked)
    return null
  })

  route(app, catalogue.updateUserPhone, async ({ payload, user, c }) => {
    const phone = requireMobile(payload.phone)
    const owner = await userByPhone(db, phone)
    if (owner && owner.id !== user.id) throw new DomainError(AuthStatus.phoneTaken, AuthMsg.phoneTaken)
    await sms.consume(phone, clientAddress(c), SmsPurpose.bindPhone, payload.code.trim())
    await db.updateTable('users').set({ phone, user_type: 1 }).where('id', '=', user.id).execute()
    return null
  })

  publicRoute(app, catalogue.agreementContent, async () => {
    const row = await db.selectFrom('agreements').select(['title', 'content']).where('id', '=', 1).executeTakeFirst()
    if (!row) throw notFound('用户协议')
    return row
  })
}
