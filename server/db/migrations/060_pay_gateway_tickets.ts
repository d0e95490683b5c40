// The reference payment gateway (Alipay H5 / WeChat H5): one unguessable ticket per started H5 payment, spent once.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('pay_gateway_tickets')
    .addColumn('ticket', 'text', (c) => c.primaryKey())
    .addColumn('my_order_num', 'text', (c) => c.notNull().references('orders.my_order_num').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('pay_gateway_tickets_order').on('pay_gateway_tickets').column('my_order_num').execute()
}
