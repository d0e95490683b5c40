// Session tokens: opened with a lifetime, revoked at logout and when the password changes; the push hub closes the
// sockets a revoked token opened (issue 11 finding 4). The tab then gets 401 on its next call and exits (§8).
// The card tokens a session asked for end with it (their rows go with the session's: a foreign key), and every
// instance closes the phone-stream channels they opened with 'sessionEnded' (issue 22 finding 1).
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { ClusterEvents, PushHub } from '../context.ts'
import type { Database } from '../db/schema.ts'

/** How long a token is valid after login. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000

export const openSession = async (db: Kysely<Database>, userId: number, uuid: string, now = Date.now()): Promise<string> => {
  const token = randomBytes(24).toString('hex')
  await db.insertInto('sessions').values({ token, user_id: userId, uuid, expires_at: new Date(now + SESSION_TTL_MS) }).execute()
  return token
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
 * After the revoking transaction commits: the push sockets of those tokens are closed as unauthorised, and the phone
 * streams they opened (on every instance) are closed with 'sessionEnded'.
 */
export const closeRevoked = async (ctx: { readonly hub: PushHub; readonly cluster: ClusterEvents }, tokens: ReadonlyArray<string>): Promise<void> => {
  if (tokens.length === 0) return
  const ended: SessionsEnded = { digests: tokens.map(sessionDigest) }
  await Promise.all([ctx.hub.closeTokens(tokens), ctx.cluster.publish(SESSIONS_ENDED_TOPIC, ended).catch(() => undefined)])
}
