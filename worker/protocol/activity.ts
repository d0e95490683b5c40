// Personal-centre activities (§7 "Other", "Pay and packages"): the activities shown there, redeeming star coins for
// an activation code, and the coupons that arrived lately. Shapes are ours.
import * as Schema from 'effect/Schema'
import { Id } from './limits.ts'
import { Coupon } from './account.ts'
import { endpoint, NoPayload } from './endpoint.ts'

/** An activity card; with a commodity it offers an activation code for `starCoin` star coins. */
export const PersonalActivity = Schema.Struct({
  id: Schema.Number,
  title: Schema.String,
  content: Schema.String,
  commodityId: Schema.NullOr(Schema.Number),
  starCoin: Schema.Number,
})
export type PersonalActivity = typeof PersonalActivity.Type

export const CommodityCode = Schema.Struct({ activationCode: Schema.String, codeName: Schema.String, starCoin: Schema.Number })
export type CommodityCode = typeof CommodityCode.Type

/** Coupons received within this many days that can still be used count as new. */
export const NEW_COUPON_DAYS = 7

export const activityEndpoints = {
  getPersonalCenterActivity: endpoint({
    name: 'getPersonalCenterActivity', method: 'GET', repeatable: true, path: '/api/activity/activity/basic/getPersonalCenterActivity',
    request: NoPayload, response: Schema.Array(PersonalActivity),
  }),
  commodityActivationCode: endpoint({
    name: 'commodityActivationCode', method: 'POST', repeatable: false, idempotent: true, path: '/api/activity/integral/commodity/activationCode',
    request: Schema.Struct({ commodityId: Id }), response: CommodityCode,
  }),
  getNewCoupon: endpoint({
    name: 'getNewCoupon', method: 'GET', repeatable: true, path: '/api/pay/v3/invitation/client/getNewCoupon',
    request: NoPayload, response: Schema.Array(Coupon),
  }),
} as const
