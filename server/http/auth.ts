// Token authentication over the sessions table, and user look-up by username or phone.
import type { Kysely } from 'kysely'
import type { Auth, AuthUser } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { endedElsewhere } from '../session/tokens.ts'

export const createAuth = (db: Kysely<Database>): Auth => ({
  async userFromToken(token) {
    if (!token) return null
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id', 'users.username', 'users.phone', 'users.user_type', 'sessions.token', 'sessions.expires_at'])
      .where('sessions.token', '=', token)
      .where('sessions.expires_at', '>', new Date())
      .executeTakeFirst()
    if (!row) return null
    return {
      id: row.id, username: row.username, phone: row.phone, userType: row.user_type, token: row.token,
      expiresAt: new Date(row.expires_at).getTime(),
    } satisfies AuthUser
  },
  endedElsewhere: (token) => endedElsewhere(db, token),
  async findUser(usernameOrPhone) {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'phone', 'user_type'])
      .where((eb) => eb.or([eb('username', '=', usernameOrPhone), eb('phone', '=', usernameOrPhone)]))
      .executeTakeFirst()
    return row ? { id: row.id, username: row.username, phone: row.phone, userType: row.user_type } : null
  },
})
