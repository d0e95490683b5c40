// The WeChat mini program's login (worker/protocol/applet.ts): the codes the reference server's simulated WeChat
// issues (one use, 5 minutes), and per openId the session key with the phone it has verified.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('applet_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('session_key', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()
  await db.schema.createTable('applet_sessions')
    .addColumn('open_id', 'text', (c) => c.primaryKey())
    .addColumn('session_key', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('phone_verified_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}
