// Card tokens end with the session that asked for them (issue 22 finding 1): each device_sessions row names the login
// session (sessions.token, deleted at logout and password reset, so its card tokens go with it) and expires with it.
// Rows from before this migration were bound to nothing: they end here (a viewer gets a new token from connect).
import { type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.deleteFrom('device_sessions').execute()
  await db.schema.alterTable('device_sessions')
    .addColumn('session_token', 'text', (c) => c.notNull().references('sessions.token').onDelete('cascade'))
    .execute()
  await db.schema.alterTable('device_sessions')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('device_sessions_session_token').on('device_sessions').column('session_token').execute()
  await db.schema.createIndex('device_sessions_device_id').on('device_sessions').column('device_id').execute()
  await db.schema.createIndex('device_sessions_expires_at').on('device_sessions').column('expires_at').execute()
}
