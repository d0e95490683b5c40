// Idempotent demo data of the account screens: coupons in every state and star coin records for the demo users, and
// unused, used and expired activation codes of each type. Rows carry a seed key (codes their code): never duplicated.
import type { Kysely } from 'kysely'
import { ActivationCodeType } from '../../worker/protocol/account.ts'
import type { Database } from '../db/schema.ts'
import { accountDb } from './tables.ts'

const DAY = 86_400_000
const STAR_COIN_GOT = 1
const STAR_COIN_USED = 2

const coupons = [
  { key: 'a', name: '10元无门槛券', type: 1, value: 10, discount: 0, max: null, min: 0, batch: true, endDays: 30 },
  { key: 'b', name: '续费8.5折券', type: 2, value: 0, discount: 8.5, max: 20, min: 30, batch: false, endDays: 7 },
  { key: 'c', name: '满50减15', type: 1, value: 15, discount: 0, max: null, min: 50, batch: false, endDays: 2 },
  { key: 'd', name: '新人5元券', type: 1, value: 5, discount: 0, max: null, min: 0, batch: false, endDays: 20, locked: 'SEED-ORDER-0001' },
  { key: 'e', name: '首购9折券', type: 2, value: 0, discount: 9, max: 10, min: 0, batch: false, endDays: 10, usedDaysAgo: 3 },
  { key: 'f', name: '春节8折券', type: 2, value: 0, discount: 8, max: 30, min: 0, batch: true, endDays: -2 },
  { key: 'g', name: '3元体验券', type: 1, value: 3, discount: 0, max: null, min: 0, batch: false, endDays: -15 },
] as const

const starCoinRecords = [
  { key: 'g1', kind: STAR_COIN_GOT, amount: 50, text: '新用户注册礼包', daysAgo: 40 },
  { key: 'g2', kind: STAR_COIN_GOT, amount: 10, text: '购买性能版月卡赠送', daysAgo: 30 },
  { key: 'g3', kind: STAR_COIN_GOT, amount: 20, text: '邀请好友注册奖励', daysAgo: 21 },
  ...Array.from({ length: 9 }, (_, i) => ({ key: `s${i + 1}`, kind: STAR_COIN_GOT, amount: 2, text: '每日签到奖励', daysAgo: 10 - i })),
  { key: 'u1', kind: STAR_COIN_USED, amount: 20, text: '星币支付：标准版 天卡', daysAgo: 25 },
  { key: 'u2', kind: STAR_COIN_USED, amount: 8, text: '星币抵扣：续费云手机-01', daysAgo: 5 },
]

/** Codes anyone may exchange (15 characters); the used and expired ones show the refusals. */
export const demoActivationCodes = {
  coupon: ['CPN2026SPRING01', 'CPN2026SPRING02', 'CPN2026SPRING03'],
  discountCoupon: 'CPN2026DISC8501',
  device: ['DEV7DAYS2026001', 'DEV7DAYS2026002'],
  package: 'PKG30DAY2026001',
  used: 'USED2026CODE001',
  expired: 'EXPD2026CODE001',
} as const

/** The demo accounts that get coupons and star coins (the e2e fixtures pass their own accounts' phones). */
export const COUPON_HOLDER_PHONES: ReadonlyArray<string> = ['13800138000', '13700137000', '13500135000']

export const seedAccountDemoData = async (core: Kysely<Database>, now = Date.now(), phones = COUPON_HOLDER_PHONES): Promise<void> => {
  const db = accountDb(core)
  const users = await db.selectFrom('users').select(['id', 'phone']).where('phone', 'in', phones).execute()
  for (const u of users) {
    await db.insertInto('account_coupons').values(coupons.map((c, i) => ({
      user_id: u.id, coupon_name: c.name, coupon_type: c.type, coupon_value: c.value, deduction_price: c.discount,
      max_value: c.max, min_amount: c.min, batch_buy: c.batch, start_time: new Date(now - 30 * DAY),
      end_time: new Date(now + c.endDays * DAY), locked_order: 'locked' in c ? c.locked : null,
      used_at: 'usedDaysAgo' in c ? new Date(now - c.usedDaysAgo * DAY) : null, source: 'seed',
      seed_key: `${u.phone}:${c.key}`, created_at: new Date(now - (40 - i) * DAY),
    }))).onConflict((oc) => oc.column('seed_key').doNothing()).execute()
    await db.insertInto('account_star_coin_records').values(starCoinRecords.map((r) => ({
      user_id: u.id, kind: r.kind, amount: r.amount, description: r.text, seed_key: `${u.phone}:${r.key}`,
      created_at: new Date(now - r.daysAgo * DAY),
    }))).onConflict((oc) => oc.column('seed_key').doNothing()).execute()
  }
  const monthMeal = await db.selectFrom('meals').select('id').where('meal_name', '=', '标准版 月卡').executeTakeFirst()
  const usedBy = users[0]?.id ?? null
  const year = now + 365 * DAY
  const codes = [
    ...demoActivationCodes.coupon.map((code) => ({
      code, code_type: ActivationCodeType.coupon, coupon_name: '激活码专享5元券', coupon_type: 1, coupon_value: 5, coupon_valid_days: 30, expires_at: new Date(year),
    })),
    { code: demoActivationCodes.discountCoupon, code_type: ActivationCodeType.coupon, coupon_name: '激活码专享8.5折券', coupon_type: 2, deduction_price: 8.5, coupon_valid_days: 15, expires_at: new Date(year) },
    ...demoActivationCodes.device.map((code) => ({ code, code_type: ActivationCodeType.device, days: 7, expires_at: new Date(year) })),
    ...(monthMeal ? [{ code: demoActivationCodes.package, code_type: ActivationCodeType.package, meal_id: monthMeal.id, expires_at: new Date(year) }] : []),
    { code: demoActivationCodes.used, code_type: ActivationCodeType.device, days: 7, expires_at: new Date(year), used_by: usedBy, used_at: new Date(now - 2 * DAY) },
    { code: demoActivationCodes.expired, code_type: ActivationCodeType.device, days: 7, expires_at: new Date(now - DAY) },
  ]
  for (const c of codes) {
    await db.insertInto('account_activation_codes').values(c).onConflict((oc) => oc.column('code').doNothing()).execute()
  }
}
