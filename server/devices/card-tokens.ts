// Card tokens (issue 22 finding 1). A token from `connect` opens the phone stream only while
//  - the login session that asked for it lasts: each row names its session (a foreign key, so logout and a password
//    reset, which delete sessions, delete its tokens) and expires with it;
//  - its user still has the device: a transfer and removeAuth delete their tokens, and an access check backs that up;
//  - the device is not expired (by the device clock);
//  - the phone was not factory-reset or replaced since (both delete the device's tokens: a new connect gives new ones).
// The stream checks this when a card opens and, every CARD_TOKEN_CHECK_MS, for every channel open on the instance; rows
// that ended are purged every CARD_TOKEN_PURGE_MS.
import { randomBytes } from 'node:crypto'
import type { StreamCloseReason } from '../../worker/protocol/stream.ts'
import type { AuthUser } from '../context.ts'
import type { DevicesDb } from './tables.ts'

/** How often the open channels' tokens are checked again (a device that expired meanwhile is closed with 'expired'). */
export const CARD_TOKEN_CHECK_MS = 30_000
/** How often ended tokens are deleted. */
export const CARD_TOKEN_PURGE_MS = 10 * 60_000

/**
 * A new card token for the device, bound to the caller's session and expiring with it (one statement, so a logout at
 * the same time either deletes it or finds it never made); null when that session has ended.
 */
export const issueCardToken = async (db: DevicesDb, deviceId: number, user: AuthUser): Promise<string | null> => {
  const cardToken = randomBytes(16).toString('hex')
  const row = await db.insertInto('device_sessions')
    .columns(['card_token', 'device_id', 'user_id', 'session_token', 'expires_at'])
    .expression((eb) => eb.selectFrom('sessions')
      .select([
        eb.cast<string>(eb.val(cardToken), 'text').as('card_token'),
        eb.cast<number>(eb.val(deviceId), 'integer').as('device_id'),
        eb.cast<number>(eb.val(user.id), 'integer').as('user_id'),
        'sessions.token as session_token',
        'sessions.expires_at',
      ])
      .where('sessions.token', '=', user.token)
      .where('sessions.user_id', '=', user.id)
      .where('sessions.expires_at', '>', new Date()))
    .returning('card_token')
    .executeTakeFirst()
  return row ? cardToken : null
}

export interface CardTokenRow {
  readonly card_token: string
  readonly session_token: string
  readonly token_expires_at: Date | string
  readonly device_id: number
  readonly user_id: number
  readonly owner_id: number
  readonly user_card_id: number
  readonly device_expires_at: Date | string
  readonly grant_id: number | null
}

/** The rows of these tokens with their device and the user's grant on it (tokens that ended have none). */
export const cardTokenRows = async (db: DevicesDb, tokens: ReadonlyArray<string>): Promise<CardTokenRow[]> => {
  if (tokens.length === 0) return []
  return db.selectFrom('device_sessions as t')
    .innerJoin('devices as d', 'd.id', 't.device_id')
    .leftJoin('device_auths as g', (j) => j.onRef('g.device_id', '=', 't.device_id').onRef('g.grantee_id', '=', 't.user_id'))
    .select([
      't.card_token', 't.session_token', 't.expires_at as token_expires_at', 't.device_id', 't.user_id', 'd.owner_id', 'd.user_card_id',
      'd.expires_at as device_expires_at', 'g.id as grant_id',
    ])
    .where('t.card_token', 'in', tokens)
    .execute()
}

/** Why a token that exists no longer opens its device (null: it does), at `now` by the device clock. */
export const endedReason = (row: CardTokenRow, now: number): StreamCloseReason | null => {
  if (new Date(row.token_expires_at).getTime() <= now) return 'sessionEnded'
  if (row.owner_id !== row.user_id && row.grant_id === null) return 'accessRemoved'
  if (new Date(row.device_expires_at).getTime() <= now) return 'expired'
  return null
}

const CHECK_CHUNK = 500

/** Of these tokens, the ones that no longer open their device, each with the reason its channel closes. */
export const endedCardTokens = async (db: DevicesDb, tokens: ReadonlyArray<string>, now: number): Promise<Map<string, StreamCloseReason>> => {
  const ended = new Map<string, StreamCloseReason>()
  for (let i = 0; i < tokens.length; i += CHECK_CHUNK) {
    const chunk = tokens.slice(i, i + CHECK_CHUNK)
    const rows = new Map((await cardTokenRows(db, chunk)).map((r) => [r.card_token, r]))
    for (const token of chunk) {
      const row = rows.get(token)
      const reason = row ? endedReason(row, now) : 'refused'
      if (reason) ended.set(token, reason)
    }
  }
  return ended
}

/** A factory reset: the device's tokens end (its viewers connect again for new ones). */
export const endDeviceCardTokens = async (db: DevicesDb, deviceId: number): Promise<void> => {
  await db.deleteFrom('device_sessions').where('device_id', '=', deviceId).execute()
}

/** Deletes the tokens that ended by time: their session's expiry, or their device's; how many. */
export const purgeCardTokens = async (db: DevicesDb, now: number): Promise<number> => {
  const at = new Date(now)
  const rows = await db.deleteFrom('device_sessions')
    .where((eb) => eb.or([
      eb('expires_at', '<=', at),
      eb('device_id', 'in', eb.selectFrom('devices').select('id').where('expires_at', '<=', at)),
    ]))
    .returning('card_token')
    .execute()
  return rows.length
}
