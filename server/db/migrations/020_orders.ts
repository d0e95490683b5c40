// Orders (buy, renew) and their payment state; coupons and star coin records live in the account tables (030).
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  const now = sql`now()`
  await db.schema.createTable('orders')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('my_order_num', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('buy_type', 'integer', (c) => c.notNull())
    .addColumn('meal_id', 'integer', (c) => c.notNull())
    .addColumn('phone_type', 'text', (c) => c.notNull())
    .addColumn('android_version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('coupon_id', 'integer')
    .addColumn('disk_names', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_card_ids', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('star_coin', 'integer', (c) => c.notNull())
    .addColumn('give_star_num', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preferential_content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pay_type', 'integer')
    .addColumn('finish_pay', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('qr_code', 'text')
    .addColumn('ctime', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('close_time', 'timestamptz', (c) => c.notNull())
    .addColumn('finish_time', 'timestamptz')
    .execute()
  await db.schema.createIndex('orders_user_ctime').on('orders').columns(['user_id', 'ctime']).execute()
}
