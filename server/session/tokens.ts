// Session tokens: opened with a lifetime, revoked at logout and when the password changes; the push hub closes the
// sockets a revoked token opened (issue 11 finding 4). The tab then gets 401 on its next call and exits (§8).
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { PushHub } from '../context.ts'
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

/** After the revoking transaction commits: the sockets of those tokens are closed as unauthorised. */
export const closeRevoked = async (hub: PushHub, tokens: ReadonlyArray<string>): Promise<void> => {
  if (tokens.length > 0) await hub.closeTokens(tokens)
}
