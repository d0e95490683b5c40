// SMS verification codes (the reference server logs them instead of sending) and the user agreement, seeded once.
import { sql, type Kysely } from 'kysely'
import { AGREEMENT_CONTENT, AGREEMENT_TITLE } from '../../session/agreement-text.ts'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('sms_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('purpose', 'integer', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('sms_codes_phone_created').on('sms_codes').columns(['phone', 'created_at']).execute()
  await db.schema.createTable('agreements')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.insertInto('agreements').values({ id: 1, title: AGREEMENT_TITLE, content: AGREEMENT_CONTENT }).execute()
}
