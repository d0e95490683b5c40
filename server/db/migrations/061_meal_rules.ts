// Purchase rules texts, the batch entries switch and the phone types' corner tags, with the reference defaults.
import type { Kysely } from 'kysely'

const MEAL_RULES = [
  '1. 套餐自支付成功起生效，购买的云手机会出现在首页的云手机列表中。',
  '2. 续费会在云手机当前到期时间的基础上顺延；已过期的云手机从续费成功时起算。',
  '3. 优惠券仅适用于支持优惠的套餐，星币支付不可使用优惠券。',
  '4. 每个账号最多拥有60台云手机。',
  '5. 虚拟商品一经售出不支持退款，如有疑问请联系在线客服。',
].join('\n')

const BATCH_RULES = [
  '1. 批量购买一次可购买多台同一机型、同一安卓版本的云手机。',
  '2. 批量续费仅限同一类型的云手机，已授权给他人或他人授权给您的云手机不可批量续费。',
  '3. 只有标注可批量使用的优惠券才能用于多台云手机。',
].join('\n')

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('meal_icons')
    .addColumn('phone_type', 'text', (c) => c.primaryKey())
    .addColumn('icon_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon_url', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.insertInto('meal_icons').values([{ phone_type: 'PERFORMANCE', icon_text: '推荐', icon_url: '' }]).execute()
  await db.insertInto('system_config').values([
    { key: 'phoneMealBatchSwitch', value: 'true' },
    { key: 'mealRulesTitle', value: '购买须知' },
    { key: 'mealRulesContent', value: MEAL_RULES },
    { key: 'batchMealRulesTitle', value: '批量购买须知' },
    { key: 'batchMealRulesContent', value: BATCH_RULES },
  ]).onConflict((oc) => oc.column('key').doNothing()).execute()
}
