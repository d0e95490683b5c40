// Session tokens: opened with a lifetime, revoked at logout and when the password changes; the push hub closes the
// sockets a revoked token opened (issue 11 finding 4). The tab then gets 401 on its next call and exits (§8).
// Concurrent sessions (issue 22 finding 15): at most MAX_SESSIONS_PER_ACCOUNT per account; a login past it ends the
// oldest, whose calls are then answered 6013 (账号已在别处登录！) and whose push sockets get a forcedOfflineMsg with that
// text before they close. Expired sessions and the record of ended ones are purged every SESSION_PURGE_MS.
// The card tokens a session asked for end with it (their rows go with the session's: a foreign key), and every
// instance closes the phone-stream channels they opened with 'sessionEnded' (issue 22 finding 1).
import { createHash, randomBytes } from 'node:crypto'
import { sql, type ColumnType, type Kysely } from 'kysely'
import type { PushMessage } from '../../worker/protocol/push.ts'
import type { ClusterEvents, PushHub } from '../context.ts'
import type { Database } from '../db/schema.ts'

/** How long a token is valid after login. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000
/**
 * Sessions one account may hold at once (a browser profile, a phone, a second browser, a tab without SharedWorker,
 * the mini program); the sixth login ends the oldest.
 */
export const MAX_SESSIONS_PER_ACCOUNT = 5
/** §8: the text of code 6013, answered to the calls of a session that ended because the account signed in elsewhere. */
export const ELSEWHERE_STATUS = 6013
export const ELSEWHERE_MSG = '账号已在别处登录！'
/** How long an ended session is still answered 6013 (then it is an unknown token: 401). */
export const ENDED_MEMORY_MS = 7 * 24 * 60 * 60_000
/** How often expired sessions (with their card tokens) and old records of ended ones are deleted. */
export const SESSION_PURGE_MS = 10 * 60_000
/** A client that signed this account in within this long is one of its usual clients (throttle.ts). */
export const USUAL_CLIENT_MS = 90 * 24 * 60 * 60_000

type SessionHardeningTables = {
  login_clients: { user_id: number; uuid: string; last_login_at: ColumnType<Date, Date | undefined, Date> }
  ended_sessions: { token_digest: string; user_id: number; ended_at: ColumnType<Date, Date | undefined, Date>; forget_at: Date }
}
const hardDb = (db: Kysely<Database>) => db.withTables<SessionHardeningTables>()

/** The push that tells the sockets of a session ended by a login elsewhere (the tab shows it in its 提示 modal). */
export const elsewhereFrame = (): string =>
  JSON.stringify({ type: 'forcedOfflineMsg', data: { content: ELSEWHERE_MSG } } satisfies PushMessage)

/**
 * Opens a session for the user on client `uuid`, remembers the client as one of the account's usual ones, and ends
 * the account's oldest sessions past MAX_SESSIONS_PER_ACCOUNT. Returns the new token and the tokens that ended
 * (for `closeRevoked` with `elsewhereFrame`, after this commits).
 */
export const openSessionEnding = async (
  database: Kysely<Database>, userId: number, uuid: string, now = Date.now(),
): Promise<{ token: string; ended: string[] }> => {
  const token = randomBytes(24).toString('hex')
  const at = new Date(now)
  const ended = await database.transaction().execute(async (trx) => {
    const db = hardDb(trx)
    // logins of one account take turns (on every instance), so two at once cannot both keep six sessions
    await sql`select pg_advisory_xact_lock(hashtext(${`sessions:${userId}`}))`.execute(trx)
    await db.insertInto('sessions').values({ token, user_id: userId, uuid, created_at: at, expires_at: new Date(now + SESSION_TTL_MS) }).execute()
    await db.insertInto('login_clients').values({ user_id: userId, uuid, last_login_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'uuid']).doUpdateSet({ last_login_at: at })).execute()
    const beyond = await db.selectFrom('sessions').select('token').where('user_id', '=', userId).where('expires_at', '>', at)
      .orderBy('created_at', 'desc').orderBy('token').offset(MAX_SESSIONS_PER_ACCOUNT).limit(1000).execute()
    const tokens = beyond.map((r) => r.token).filter((t) => t !== token)
    if (tokens.length === 0) return []
    await db.deleteFrom('sessions').where('token', 'in', tokens).execute()
    await db.insertInto('ended_sessions')
      .values(tokens.map((t) => ({ token_digest: sessionDigest(t), user_id: userId, ended_at: at, forget_at: new Date(now + ENDED_MEMORY_MS) })))
      .onConflict((oc) => oc.column('token_digest').doNothing()).execute()
    return tokens
  })
  return { token, ended }
}

/** Opens a session (see `openSessionEnding`) and closes the sessions it ended; returns the new token. */
export const openSession = async (
  ctx: { readonly db: Kysely<Database>; readonly hub: PushHub; readonly cluster: ClusterEvents }, userId: number, uuid: string,
): Promise<string> => {
  const { token, ended } = await openSessionEnding(ctx.db, userId, uuid)
  await closeRevoked(ctx, ended, elsewhereFrame())
  return token
}

/** Whether `uuid` signed this account in lately (a usual client of the account); false for an unknown account. */
export const isUsualClient = async (db: Kysely<Database>, userId: number | null, uuid: string, now = Date.now()): Promise<boolean> => {
  // asked for unknown accounts too (user -1), so a login for an unknown name costs the same queries
  const row = await hardDb(db).selectFrom('login_clients').select('user_id')
    .where('user_id', '=', userId ?? -1).where('uuid', '=', uuid).where('last_login_at', '>', new Date(now - USUAL_CLIENT_MS))
    .executeTakeFirst()
  return row !== undefined && userId !== null
}

/** Whether this token's session ended because the account signed in elsewhere (answered 6013 rather than 401). */
export const endedElsewhere = async (db: Kysely<Database>, token: string): Promise<boolean> => {
  const row = await hardDb(db).selectFrom('ended_sessions').select('user_id')
    .where('token_digest', '=', sessionDigest(token)).where('forget_at', '>', new Date()).executeTakeFirst()
  return row !== undefined
}

/**
 * Deletes the sessions past their expiry (their card tokens go with them: a foreign key) and the records of ended
 * sessions past ENDED_MEMORY_MS; how many sessions.
 */
export const purgeSessions = async (database: Kysely<Database>, now = Date.now()): Promise<number> => {
  const at = new Date(now)
  const db = hardDb(database)
  await db.deleteFrom('ended_sessions').where('forget_at', '<=', at).execute()
  await db.deleteFrom('login_clients').where('last_login_at', '<=', new Date(now - USUAL_CLIENT_MS)).execute()
  return (await db.deleteFrom('sessions').where('expires_at', '<=', at).returning('token').execute()).length
}

/** Deletes the sessions of a user (all, or one token); returns the tokens that ended, for `closeRevoked`. */
export const revokeSessions = async (db: Kysely<Database>, userId: number, token?: string): Promise<string[]> => {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId)
  if (token !== undefined) query = query.where('token', '=', token)
  return (await query.returning('token').execute()).map((r) => r.token)
}

/** The cluster topic of ended sessions: `{ digests }`, the `sessionDigest` of each (never the tokens themselves). */
export const SESSIONS_ENDED_TOPIC = 'sessions-ended'
export interface SessionsEnded {
  readonly digests: ReadonlyArray<string>
}

export const sessionDigest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')

/**
 * After the revoking transaction commits: the push sockets of those tokens are sent `lastFrame` (when given) and closed
 * as unauthorised, and the phone streams they opened (on every instance) are closed with 'sessionEnded'.
 */
export const closeRevoked = async (
  ctx: { readonly hub: PushHub; readonly cluster: ClusterEvents }, tokens: ReadonlyArray<string>, lastFrame?: string,
): Promise<void> => {
  if (tokens.length === 0) return
  const ended: SessionsEnded = { digests: tokens.map(sessionDigest) }
  await Promise.all([ctx.hub.closeTokens(tokens, lastFrame), ctx.cluster.publish(SESSIONS_ENDED_TOPIC, ended).catch(() => undefined)])
}
