// Scale-out: the server instances over this database (push fan-out and `ops connections` ask each of them), push
// frames too large for one NOTIFY, and secrets every instance must share (the operator token).
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('server_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // this instance's push connections, written when `ops connections` asks
    .addColumn('push_stats', 'jsonb')
    .execute()
  await db.schema.createTable('push_payloads')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('frame', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()
}
