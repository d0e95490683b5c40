// The reference server's SMS codes: 6 digits, valid 5 minutes, one send per phone per 60 s, 5 wrong guesses; the
// code is written to the server log (no SMS gateway here) and read back by `npm run ops -- sms <phone>`.
import { randomInt } from 'node:crypto'
import { sql } from 'kysely'
import { SMS_COUNTDOWN_S, CODE_LENGTH } from '../../worker/protocol/constants.ts'
import type { SmsPurpose } from '../../worker/protocol/session.ts'
import { DomainError } from '../http/errors.ts'
import { AuthStatus, AuthMsg } from './messages.ts'
import type { SessionDb } from './tables.ts'

export const CODE_TTL_MS = 5 * 60_000
export const RESEND_INTERVAL_MS = SMS_COUNTDOWN_S * 1000
export const MAX_CODE_ATTEMPTS = 5

export interface SentCode {
  readonly phone: string
  readonly purpose: number
  readonly code: string
  readonly createdAt: string
  readonly expiresAt: string
}

const newCode = (): string => String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0')

/** Issues a code, refusing a second send to the same phone within the resend interval. */
export const issueCode = async (db: SessionDb, phone: string, purpose: SmsPurpose, log: (line: string) => void, now = new Date()): Promise<SentCode> => {
  const code = newCode()
  await db.transaction().execute(async (trx) => {
    // sends to one phone take turns (on every instance), so two simultaneous sends cannot both pass the check
    await sql`select pg_advisory_xact_lock(hashtext(${`sms-send:${phone}`}))`.execute(trx)
    const last = await trx.selectFrom('sms_codes').select('created_at').where('phone', '=', phone)
      .orderBy('created_at', 'desc').limit(1).executeTakeFirst()
    const waitMs = last ? RESEND_INTERVAL_MS - (now.getTime() - new Date(last.created_at).getTime()) : 0
    if (waitMs > 0) throw new DomainError(AuthStatus.tooFrequent, AuthMsg.tooFrequent(Math.ceil(waitMs / 1000)))
    await trx.insertInto('sms_codes').values({ phone, purpose, code, created_at: now }).execute()
  })
  log(`[sms] ${phone} 验证码：${code}（${CODE_TTL_MS / 60_000}分钟内有效）`)
  return { phone, purpose, code, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + CODE_TTL_MS).toISOString() }
}

/** Accepts the latest unused code of this phone and purpose once; a wrong guess counts against it. */
export const consumeCode = async (db: SessionDb, phone: string, purpose: SmsPurpose, code: string, now = new Date()): Promise<void> => {
  const row = await db.selectFrom('sms_codes').selectAll().where('phone', '=', phone).where('purpose', '=', purpose)
    .where('used_at', 'is', null).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (!row) throw new DomainError(AuthStatus.codeMissing, AuthMsg.codeMissing)
  const fresh = now.getTime() - new Date(row.created_at).getTime() <= CODE_TTL_MS
  if (!fresh) throw new DomainError(AuthStatus.codeExpired, AuthMsg.codeExpired)
  // every guess first takes one of the code's attempts in a single conditional update, so simultaneous guesses
  // cannot get past the limit (reading the count and writing it back would let them)
  const slot = await db.updateTable('sms_codes').set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', row.id).where('attempts', '<', MAX_CODE_ATTEMPTS).where('used_at', 'is', null)
    .returning('code').executeTakeFirst()
  if (!slot) throw new DomainError(AuthStatus.codeExpired, AuthMsg.codeExpired)
  if (slot.code !== code) throw new DomainError(AuthStatus.codeWrong, AuthMsg.codeWrong)
  const claimed = await db.updateTable('sms_codes').set({ used_at: now }).where('id', '=', row.id)
    .where('used_at', 'is', null).returning('id').executeTakeFirst()
  // two requests with the same code: only one of them gets it
  if (!claimed) throw new DomainError(AuthStatus.codeExpired, AuthMsg.codeExpired)
}

/** The latest code sent to a phone (for the operator), or null. */
export const latestCode = async (db: SessionDb, phone: string): Promise<SentCode | null> => {
  const row = await db.selectFrom('sms_codes').selectAll().where('phone', '=', phone)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (!row) return null
  const created = new Date(row.created_at)
  return {
    phone: row.phone, purpose: row.purpose, code: row.code,
    createdAt: created.toISOString(), expiresAt: new Date(created.getTime() + CODE_TTL_MS).toISOString(),
  }
}
