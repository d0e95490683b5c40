// Session endpoints: public key, RSA+MD5 password login, personal info, visit log, and the SMS-code account routes.
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import type { LoginKey } from '../crypto/login-key.ts'
import { UNMATCHABLE_HASH, verifyPasswordMd5 } from '../crypto/password.ts'
import { clientAddress } from '../http/client-address.ts'
import { DomainError, Status } from '../http/errors.ts'
import { createThrottle, throttleKey } from '../security/throttle.ts'
import { registerAccountRoutes } from './account-routes.ts'
import { texts } from '../security/texts.ts'
import { closeRevoked, isUsualClient, openSession, purgeSessions, revokeSessions, SESSION_PURGE_MS } from './tokens.ts'

export const WRONG_CREDENTIALS_MSG = '账号或密码错误'

/** Registers the routes and starts the purge of expired sessions; returns what stops it. */
export const registerSessionRoutes = (ctx: ServerContext, loginKey: LoginKey): (() => void) => {
  const { app, db, route, publicRoute } = ctx
  const throttle = createThrottle(db)

  publicRoute(app, catalogue.getPbKey, () => loginKey.publicPem)

  publicRoute(app, catalogue.login, async ({ payload, c }) => {
    const account = payload.phone.trim()
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('phone', '=', account), eb('username', '=', account)]))
      .executeTakeFirst()
    // one key per account whichever name is typed; an unknown name is throttled the same way. Every failure counts on
    // the account, on this client of it (the per-browser uuid) and on the address; the account-wide count blocks only
    // clients that are not one of the account's usual ones (issue 22 finding 6), so strangers' wrong guesses do not
    // lock the owner out of their own browser, while guessing from ever new uuids stays limited by the account's count.
    const subject = user ? `user-${user.id}` : account.toLowerCase()
    const accountKey = throttleKey('loginAccount', subject)
    const clientKey = throttleKey('loginClient', `${subject}:${payload.uuid}`)
    const keys = [accountKey, clientKey, throttleKey('loginAddress', clientAddress(c))]
    const usual = await isUsualClient(db, user?.id ?? null, payload.uuid)
    await throttle.guard(usual ? keys.filter((k) => k !== accountKey) : keys, texts.loginThrottled)
    const passwordMd5 = loginKey.decrypt(payload.password)
    // the hash is always checked, so unknown phones and bad ciphertexts answer as slowly as a wrong password
    const matches = await verifyPasswordMd5(passwordMd5 ?? '', user?.password_hash ?? UNMATCHABLE_HASH)
    if (!user || !passwordMd5 || !matches) {
      await throttle.record(keys)
      throw new DomainError(Status.badCredentials, WRONG_CREDENTIALS_MSG)
    }
    // the owner's success forgets this client's failures, not the strangers' count on the account
    await throttle.clear([clientKey])
    const inviter = payload.invitationUserName?.trim()
    if (inviter && !user.inviter && inviter !== user.username) {
      const exists = await db.selectFrom('users').select('id').where('username', '=', inviter).executeTakeFirst()
      if (exists) await db.updateTable('users').set({ inviter }).where('id', '=', user.id).execute()
    }
    const token = await openSession(ctx, user.id, payload.uuid)
    return { token, username: user.username, userType: user.user_type, phone: user.phone }
  })

  route(app, catalogue.personalInfo, async ({ user }) => {
    const row = await db.selectFrom('users').select(['nick_name']).where('id', '=', user.id).executeTakeFirstOrThrow()
    return { username: user.username, userType: user.userType, phone: user.phone, nickName: row.nick_name }
  })

  // Public: the client also reports visits while its token is being replaced; the user is recorded when known.
  publicRoute(app, catalogue.operationVisitDetailed, async ({ payload, user }) => {
    const row = await db
      .insertInto('visits')
      .values({
        uuid: payload.uuid,
        operation_type: payload.operationType,
        phone_number: payload.phoneNumber ?? user?.phone ?? null,
        login_id: payload.operationType === 2 ? (payload.id ?? null) : null,
        user_id: user?.id ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    // the logout visit is the client's last call with its token: the token ends here
    if (payload.operationType === 2 && user) await closeRevoked(ctx, await revokeSessions(db, user.id, user.token))
    return row.id
  })

  registerAccountRoutes(ctx, loginKey)
  // expired sessions (their card tokens go with them) and old records of ended ones, as card-tokens.ts purges tokens
  const purge = setInterval(() => void purgeSessions(db).catch(() => undefined), SESSION_PURGE_MS)
  purge.unref()
  return () => clearInterval(purge)
}
