// Issue 40: the outcome of every keyed write, per (user, key), kept IDEMPOTENCY_KEEP_MS (server/http/idempotency.ts).
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    // the envelope answered (JSON): success or refusal alike
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute()
}
