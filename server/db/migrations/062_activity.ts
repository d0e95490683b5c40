// Personal-centre activities and the star coin commodities they sell (activation codes), with the reference set.
import type { Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('activity_commodities')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code_name', 'text', (c) => c.notNull())
    .addColumn('star_coin', 'integer', (c) => c.notNull())
    /** the activation code it gives: 1 device days, 3 coupon (account_activation_codes.code_type). */
    .addColumn('code_type', 'integer', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('coupon_name', 'text')
    .addColumn('coupon_type', 'integer')
    .addColumn('coupon_value', 'numeric')
    .addColumn('coupon_valid_days', 'integer')
    .addColumn('code_valid_days', 'integer', (c) => c.notNull().defaultTo(30))
    .execute()
  await db.schema.createTable('personal_activities')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('commodity_id', 'integer', (c) => c.references('activity_commodities.id'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute()
  await db.insertInto('activity_commodities').values([
    { id: 1, code_name: '10元无门槛券激活码', star_coin: 50, code_type: 3, coupon_name: '星币兑换10元券', coupon_type: 1, coupon_value: 10, coupon_valid_days: 30 },
    { id: 2, code_name: '7天云手机时长激活码', star_coin: 300, code_type: 1, days: 7 },
  ]).execute()
  await db.insertInto('personal_activities').values([
    { id: 1, title: '星币换优惠券', content: '50星币兑换一张10元无门槛券的激活码，在“激活码”页面兑换后即可使用。', commodity_id: 1, sort: 1 },
    { id: 2, title: '星币换云手机时长', content: '300星币兑换7天云手机时长激活码，兑换到自己的任意一台云手机。', commodity_id: 2, sort: 2 },
  ]).execute()
}
