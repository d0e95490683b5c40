// Account endpoints: nickname, avatar, the "my" header (left/info), security state, security code (SMS check then
// the 6-digit code), real-name verification (kept masked), coupons by tab, activation codes, star coins, online
// customer service. Every refused rule answers with a Chinese msg.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { isHttpUrl } from '../../worker/protocol/domain.ts'
import type { Context } from 'hono'
import { sql, type Kysely } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { CouponStatus, type AccountSecurity, type Coupon } from '../../worker/protocol/account.ts'
import { SmsPurpose } from '../../worker/protocol/session.ts'
import type { AuthUser, ServerContext } from '../context.ts'
import { hashPasswordMd5, md5Hex } from '../crypto/password.ts'
import { DomainError } from '../http/errors.ts'
import { clientAddress } from '../http/client-address.ts'
import { serverSecret } from '../security/server-secret.ts'
import { createThrottle, throttleKey } from '../security/throttle.ts'
import { createSmsGuard } from '../session/sms-guard.ts'
import { sessionDb } from '../session/tables.ts'
import { applyDeviceCode, exchangeCode } from './activation.ts'
import { AccountMsg, AccountStatus } from './messages.ts'
import { isIdCard, isRealName, isSecurityCode, nicknameOk } from '../../worker/protocol/validators.ts'
import { pageOf } from '../../worker/protocol/paging.ts'
import { couponStatusOf, maskIdCard, maskName } from './rules.ts'
import { accountDb, type AccountDb } from './tables.ts'

const TICKET_TTL_MS = 10 * 60_000
/** refusals that tell a guesser something about a code: they count against the activation throttle. */
const GUESS_FAILURES: ReadonlySet<number> = new Set([AccountStatus.codeFormat, AccountStatus.codeUnknown, AccountStatus.codeUsed, AccountStatus.codeExpired])
export const STAR_COIN_GOT = 1
export const STAR_COIN_USED = 2

const num = (v: string | number | null): number => (v === null ? 0 : Number(v))

/** Star coins held: everything got minus everything spent. Takes any handle that sees the account tables (a pay
 * transaction included). */
export const starCoinBalance = async (handle: Kysely<any>, userId: number): Promise<number> => {
  const db = handle as AccountDb
  const { balance } = await db.selectFrom('account_star_coin_records')
    .select(sql<number>`coalesce(sum(case when kind = ${STAR_COIN_GOT} then amount else -amount end), 0)::int`.as('balance'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow()
  return Number(balance)
}

/** The coupons of one tab; the status is decided at `now` in SQL the same way couponStatusOf decides it. */
const couponsIn = (db: AccountDb, userId: number, status: number, now: Date) => {
  const q = db.selectFrom('account_coupons').where('user_id', '=', userId)
  switch (status) {
    case CouponStatus.effective:
      return q.where('used_at', 'is', null).where('locked_order', 'is', null).where('end_time', '>=', now)
    case CouponStatus.inUse:
      return q.where('used_at', 'is', null).where('locked_order', 'is not', null)
    case CouponStatus.used:
      return q.where('used_at', 'is not', null)
    case CouponStatus.invalid:
      return q.where('used_at', 'is', null).where('locked_order', 'is', null).where('end_time', '<', now)
    default:
      throw new DomainError(AccountStatus.couponStatusInvalid, AccountMsg.couponStatusInvalid)
  }
}

export const registerAccountModuleRoutes = (ctx: ServerContext): void => {
  const { app, route, publicRoute, hub } = ctx
  const db = accountDb(ctx.db)
  const throttle = createThrottle(ctx.db)
  let idCardKey: Promise<Buffer> | undefined
  const sms = createSmsGuard(sessionDb(ctx.db), throttle)

  const profileOf = (userId: number) => db.selectFrom('account_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst()
  const ensureProfile = (userId: number) =>
    db.insertInto('account_profiles').values({ user_id: userId }).onConflict((oc) => oc.column('user_id').doNothing()).execute()

  const securityOf = async (userId: number): Promise<AccountSecurity> => {
    const p = await profileOf(userId)
    return {
      verified: p?.verified_at != null,
      realName: p?.real_name_masked ?? null,
      idCard: p?.id_card_masked ?? null,
      hasSecondaryPassword: p?.secondary_password_hash != null,
    }
  }

  const tell = (user: AuthUser, type: 'refreshCloudPhoneList' | 'sendCouponMsg') => hub.send(user.username, { type, data: null })

  route(app, catalogue.updatePersonalInfo, async ({ payload, user }) => {
    if (!nicknameOk(payload.nickName)) throw new DomainError(AccountStatus.nicknameInvalid, AccountMsg.nicknameInvalid)
    await db.updateTable('users').set({ nick_name: payload.nickName.trim() }).where('id', '=', user.id).execute()
    return null
  })

  route(app, catalogue.getHeadPortrait, async ({ user }) => {
    const url = (await profileOf(user.id))?.head_portrait ?? null
    // only an absolute http(s) address ever reaches the tab
    return { headPortrait: isHttpUrl(url) ? url : null }
  })

  route(app, catalogue.leftInfo, async ({ user }) => {
    const u = await db.selectFrom('users').select(['nick_name', 'username']).where('id', '=', user.id).executeTakeFirstOrThrow()
    const { n } = await couponsIn(db, user.id, CouponStatus.effective, new Date()).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
    return { surfaceName: u.nick_name || u.username, starCoin: await starCoinBalance(db, user.id), couponNum: Number(n) }
  })

  route(app, catalogue.accountSecurity, ({ user }) => securityOf(user.id))

  // The SMS code goes to the account's own phone (sent with the bind-phone purpose, which allows one's own number).
  route(app, catalogue.checkPhoneCode, async ({ payload, user, c }) => {
    await sms.consume(user.phone, clientAddress(c), SmsPurpose.bindPhone, payload.code.trim())
    const ticket = randomBytes(24).toString('hex')
    await db.deleteFrom('account_security_tickets').where('user_id', '=', user.id).execute()
    await db.insertInto('account_security_tickets').values({ ticket, user_id: user.id, expires_at: new Date(Date.now() + TICKET_TTL_MS) }).execute()
    return { ticket }
  })

  route(app, catalogue.updateUserSecondaryPassword, async ({ payload, user }) => {
    if (!isSecurityCode(payload.secondaryPassword)) throw new DomainError(AccountStatus.securityCodeInvalid, AccountMsg.securityCodeInvalid)
    const spent = await db.deleteFrom('account_security_tickets')
      .where('ticket', '=', payload.ticket).where('user_id', '=', user.id).where('expires_at', '>', new Date())
      .returning('ticket').executeTakeFirst()
    if (!spent) throw new DomainError(AccountStatus.ticketInvalid, AccountMsg.ticketInvalid)
    await ensureProfile(user.id)
    await db.updateTable('account_profiles').set({ secondary_password_hash: await hashPasswordMd5(md5Hex(payload.secondaryPassword)) })
      .where('user_id', '=', user.id).execute()
    return null
  })

  route(app, catalogue.identityVerification, async ({ payload, user }) => {
    const realName = payload.realName.trim()
    const idCard = payload.idCard.trim().toUpperCase()
    if ((await profileOf(user.id))?.verified_at != null) throw new DomainError(AccountStatus.alreadyVerified, AccountMsg.alreadyVerified)
    if (!isRealName(realName)) throw new DomainError(AccountStatus.realNameInvalid, AccountMsg.realNameInvalid)
    if (!isIdCard(idCard)) throw new DomainError(AccountStatus.idCardInvalid, AccountMsg.idCardInvalid)
    // keyed: a dump of the table does not give the numbers back (11 digits of an ID are guessable by brute force)
    const digest = createHmac('sha256', await (idCardKey ??= serverSecret(ctx.db, 'id-card-hmac'))).update(`id-card:${idCard}`).digest('hex')
    // rows verified before the key existed hold the plain SHA-256
    const legacy = createHash('sha256').update(`id-card:${idCard}`).digest('hex')
    const holder = await db.selectFrom('account_profiles').select('user_id').where('id_card_digest', 'in', [digest, legacy]).executeTakeFirst()
    if (holder && holder.user_id !== user.id) throw new DomainError(AccountStatus.idCardTaken, AccountMsg.idCardTaken)
    await ensureProfile(user.id)
    await db.updateTable('account_profiles')
      .set({ real_name_masked: maskName(realName), id_card_masked: maskIdCard(idCard), id_card_digest: digest, verified_at: new Date() })
      .where('user_id', '=', user.id).execute()
    return securityOf(user.id)
  })

  route(app, catalogue.couponPage, async ({ payload, user }) => {
    const now = new Date()
    const { limit, offset } = pageOf(payload)
    const base = couponsIn(db, user.id, payload.status, now)
    const ordered = payload.status === CouponStatus.effective
      ? base.selectAll().orderBy('end_time', 'asc').orderBy('id', 'asc')
      : base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc')
    const rows = await ordered.limit(limit).offset(offset).execute()
    const { n } = await couponsIn(db, user.id, payload.status, now).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
    const list: Coupon[] = rows.map((r) => ({
      id: r.id, couponName: r.coupon_name, couponType: r.coupon_type, couponValue: num(r.coupon_value),
      deductionPrice: num(r.deduction_price), maxValue: r.max_value === null ? null : num(r.max_value),
      minAmount: num(r.min_amount), batchBuy: r.batch_buy, status: couponStatusOf(r, now.getTime()),
      startTime: new Date(r.start_time).toISOString(), endTime: new Date(r.end_time).toISOString(),
    }))
    return { list, total: Number(n) }
  })

  /** An activation-code call, throttled per account and address on codes that do not exist or cannot be used. */
  const guessing = async <A>(user: AuthUser, c: Context, run: () => Promise<A>): Promise<A> => {
    const keys = [throttleKey('activationAccount', user.id), throttleKey('activationAddress', clientAddress(c))]
    await throttle.guard(keys)
    try {
      return await run()
    } catch (error) {
      if (error instanceof DomainError && GUESS_FAILURES.has(error.status)) await throttle.record(keys)
      throw error
    }
  }

  route(app, catalogue.exchangeActivationCode, async ({ payload, user, c }) => {
    const outcome = await guessing(user, c, () => exchangeCode(db, user.id, payload.code))
    if (outcome.devicesChanged) await tell(user, 'refreshCloudPhoneList')
    if (outcome.couponAdded) await tell(user, 'sendCouponMsg')
    return outcome.response
  })

  route(app, catalogue.applyDeviceActivationCode, async ({ payload, user, c }) => {
    const applied = await guessing(user, c, () => applyDeviceCode(db, user.id, payload.code, payload.userCardId))
    await tell(user, 'refreshCloudPhoneList')
    return applied
  })

  route(app, catalogue.starCoins, ({ user }) => starCoinBalance(db, user.id))

  const recordPage = (kind: number) => async ({ payload, user }: { payload: { pageNum?: number | undefined; pageSize?: number | undefined }; user: AuthUser }) => {
    const { limit, offset } = pageOf(payload)
    const mine = db.selectFrom('account_star_coin_records').where('user_id', '=', user.id).where('kind', '=', kind)
    const rows = await mine.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()
    const { n } = await mine.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
    return {
      list: rows.map((r) => ({ id: r.id, amount: r.amount, description: r.description, ctime: new Date(r.created_at).toISOString() })),
      total: Number(n),
    }
  }
  route(app, catalogue.starCoinGotPage, recordPage(STAR_COIN_GOT))
  route(app, catalogue.starCoinUsedPage, recordPage(STAR_COIN_USED))

  publicRoute(app, catalogue.customInfo, async () => {
    const row = await db.selectFrom('account_custom_service').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
    const link = isHttpUrl(row.link) ? row.link : null
    return { serviceTime: row.service_time, phone: row.phone, link, tips: row.tips }
  })
}
