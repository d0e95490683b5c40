// Issue 22, second round: the clients an account usually signs in from (the login lockout spares them, finding 6),
// the sessions that ended because the account signed in elsewhere (answered 6013, finding 15, purged with the expired
// sessions), and the mini program's one-time login ticket of each code exchange (finding 3).
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('login_clients')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull())
    .addColumn('last_login_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('login_clients_pk', ['user_id', 'uuid'])
    .execute()
  await db.schema.createTable('ended_sessions')
    .addColumn('token_digest', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('forget_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('ended_sessions_forget_at').on('ended_sessions').column('forget_at').execute()
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute()
  await db.schema.alterTable('applet_sessions').addColumn('ticket_digest', 'text').execute()
}
