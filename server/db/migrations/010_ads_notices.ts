// Ads by ad place (the home pop-up) and the message centre's notices with per-user read marks.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  const now = sql`now()`
  await db.schema.createTable('ads')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('ad_place', 'integer', (c) => c.notNull())
    .addColumn('ad_name', 'text', (c) => c.notNull().unique())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('click_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone_type', 'text')
    .addColumn('android_version', 'text')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute()
  await db.schema.createIndex('ads_place').on('ads').column('ad_place').execute()
  await db.schema.createTable('notices')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('notice_type', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('pop_up', 'boolean', (c) => c.notNull().defaultTo(false))
    // null: every user sees it
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('seed_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('notices_user_id').on('notices').column('user_id').execute()
  await db.schema.createTable('notice_reads')
    .addColumn('notice_id', 'integer', (c) => c.notNull().references('notices.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('notice_reads_pk', ['notice_id', 'user_id'])
    .execute()
}
