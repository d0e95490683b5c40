// Personal-centre activities: the activity cards, redeeming star coins for an activation code (exchanged later on the
// activation code page like any other), and the coupons that arrived within NEW_COUPON_DAYS.
import { randomInt } from 'node:crypto'
import type { Kysely } from 'kysely'
import { CouponStatus, type Coupon } from '../../worker/protocol/account.ts'
import { NEW_COUPON_DAYS, type PersonalActivity } from '../../worker/protocol/activity.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { DomainError, notFound, Status } from '../http/errors.ts'
import { starCoinBalance, STAR_COIN_USED } from '../account/routes.ts'
import { accountDb, type AccountTables } from '../account/tables.ts'

interface CommoditiesTable {
  id: number
  code_name: string
  star_coin: number
  code_type: number
  days: number
  coupon_name: string | null
  coupon_type: number | null
  coupon_value: string | null
  coupon_valid_days: number | null
  code_valid_days: number
}
interface ActivitiesTable {
  id: number
  title: string
  content: string
  commodity_id: number | null
  sort: number
  active: boolean
}
type ActivityDb = Kysely<Database & AccountTables & { activity_commodities: CommoditiesTable; personal_activities: ActivitiesTable }>

const DAY_MS = 86_400_000
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** 15 characters like every activation code; letters and digits that cannot be misread. */
export const newActivationCode = (): string => Array.from({ length: 15 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')

const starCoinShort = (need: number, have: number) => new DomainError(Status.forbidden, `星币余额不足（需要${need}星币，当前${have}星币）`)

export const registerActivityRoutes = (ctx: ServerContext): void => {
  const { app, route } = ctx
  const db = accountDb(ctx.db).withTables<{ activity_commodities: CommoditiesTable; personal_activities: ActivitiesTable }>() as ActivityDb

  route(app, catalogue.getPersonalCenterActivity, async (): Promise<PersonalActivity[]> => {
    const rows = await db.selectFrom('personal_activities')
      .leftJoin('activity_commodities', 'activity_commodities.id', 'personal_activities.commodity_id')
      .select(['personal_activities.id', 'title', 'content', 'commodity_id', 'activity_commodities.star_coin'])
      .where('active', '=', true).orderBy('sort').orderBy('personal_activities.id').execute()
    return rows.map((r) => ({ id: r.id, title: r.title, content: r.content, commodityId: r.commodity_id, starCoin: r.star_coin ?? 0 }))
  })

  route(app, catalogue.commodityActivationCode, async ({ payload, user }) => {
    const commodity = await db.selectFrom('activity_commodities').selectAll().where('id', '=', payload.commodityId).executeTakeFirst()
    if (!commodity) throw notFound('兑换商品')
    const code = newActivationCode()
    const now = Date.now()
    await db.transaction().execute(async (trx) => {
      // one redeemer at a time per user: the balance is a sum over records, checked then written here
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute()
      const have = await starCoinBalance(trx as unknown as Kysely<any>, user.id)
      if (have < commodity.star_coin) throw starCoinShort(commodity.star_coin, have)
      await trx.insertInto('account_star_coin_records').values({
        user_id: user.id, kind: STAR_COIN_USED, amount: commodity.star_coin, description: `星币兑换：${commodity.code_name}`,
      }).execute()
      await trx.insertInto('account_activation_codes').values({
        code, code_type: commodity.code_type, days: commodity.days, coupon_name: commodity.coupon_name, coupon_type: commodity.coupon_type,
        coupon_value: commodity.coupon_value, coupon_valid_days: commodity.coupon_valid_days,
        expires_at: new Date(now + commodity.code_valid_days * DAY_MS),
      }).execute()
    })
    return { activationCode: code, codeName: commodity.code_name, starCoin: commodity.star_coin }
  })

  route(app, catalogue.getNewCoupon, async ({ user }): Promise<Coupon[]> => {
    const now = new Date()
    const rows = await db.selectFrom('account_coupons').selectAll().where('user_id', '=', user.id)
      .where('used_at', 'is', null).where('locked_order', 'is', null)
      .where('start_time', '<=', now).where('end_time', '>=', now)
      .where('created_at', '>=', new Date(now.getTime() - NEW_COUPON_DAYS * DAY_MS))
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).execute()
    return rows.map((r) => ({
      id: r.id, couponName: r.coupon_name, couponType: r.coupon_type, couponValue: Number(r.coupon_value),
      deductionPrice: Number(r.deduction_price), maxValue: r.max_value === null ? null : Number(r.max_value),
      minAmount: Number(r.min_amount), batchBuy: r.batch_buy, status: CouponStatus.effective,
      startTime: new Date(r.start_time).toISOString(), endTime: new Date(r.end_time).toISOString(),
    }))
  })
}
