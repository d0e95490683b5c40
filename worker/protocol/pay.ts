// Packages ("meals") area: meal types loaded at startup (§3, §7), online meal list.
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { SwitchFlag } from './switch-flag.ts'
import { FiniteIn, Id, IntIn, LongText, NameText, PageNum, PageSize, TokenText } from './limits.ts'

export const MealTypeInfo = Schema.Struct({
  phoneType: Schema.String,
  phoneTypeName: Schema.String,
  androidVersion: Schema.String,
  /** a URL, or the special values "default" / "defaultPhonePreviewUrl" (§3). */
  previewUrl: Schema.String,
})
export type MealTypeInfo = typeof MealTypeInfo.Type

/** Meal types grouped per phone type (§3), as the worker hands them to tabs. */
export const MealTypeGroup = Schema.Struct({
  label: Schema.String,
  value: Schema.String,
  previewUrl: Schema.String,
  index: Schema.Number,
  androidVersions: Schema.Array(Schema.Struct({ label: Schema.String, value: Schema.String, previewUrl: Schema.String })),
})
export type MealTypeGroup = typeof MealTypeGroup.Type

/** One package of the online list (api-notes "Packages"); prices are yuan strings, originalPrice may be ''. */
export const Meal = Schema.Struct({
  id: Schema.Number,
  phoneType: Schema.String,
  mealName: Schema.String,
  /** the device tier a purchase of this meal creates. */
  buyVipType: Schema.String,
  day: Schema.Number,
  actualPrice: Schema.String,
  originalPrice: Schema.String,
  preferentialContent: Schema.String,
  customStatement: Schema.String,
  giveStarNum: Schema.Number,
  support: Schema.Boolean,
  renewalType: Schema.Number,
  /** discounted units left; -1 = unlimited. */
  remainQuantity: Schema.Number,
  phoneRemainQuantity: Schema.Number,
  menuAddedService: Schema.Array(Schema.Struct({ serviceName: Schema.String })),
})
export type Meal = typeof Meal.Type

/** The payment switch (§3): paying is off for an OS whose switch is false; payTips says why. */
export const PaySwitch = Schema.Struct({
  iosBuySwitch: SwitchFlag,
  androidBuySwitch: SwitchFlag,
  osName: Schema.String,
  payTips: Schema.String,
})
export type PaySwitch = typeof PaySwitch.Type

/** products: '10' buy, '20' renew, '30' batch buy, '40' batch renew (ours: the old client's values, meaning assumed). */
export const CouponSortRequest = Schema.Struct({ products: NameText, payAmount: FiniteIn(0, 10_000_000) })

/** couponType 1 = fixed amount (couponValue yuan), 2 = discount (deductionPrice in 折, capped by maxValue yuan when > 0). */
export const Coupon = Schema.Struct({
  id: Schema.Number,
  couponName: Schema.String,
  couponType: Schema.Number,
  couponValue: Schema.Number,
  deductionPrice: Schema.Number,
  maxValue: Schema.Number,
  batchBuy: Schema.Boolean,
})
export type Coupon = typeof Coupon.Type

/** 3 = package upgrade (ours: the old client's upgrade order type is not known). */
export const BuyType = { recharge: 0, buy: 1, renew: 2, upgrade: 3 } as const

export const OrderCreateRequest = Schema.Struct({
  /** 0 recharge, 1 buy, 2 renew. */
  buyType: IntIn(0, 99),
  couponId: Schema.optional(Schema.NullOr(Id)),
  /** the meal id. */
  id: Id,
  mealType: Schema.optional(NameText),
  phoneType: NameText,
  /** ours: the Android version new devices get (buy only). */
  androidVersion: Schema.optional(NameText),
  quantity: IntIn(0, 1_000),
  /** csv of names for new devices (buy). */
  diskName: Schema.optional(LongText),
  /** csv of the devices to renew (renew). */
  userCardIdStr: Schema.optional(LongText),
})
export type OrderCreateRequest = typeof OrderCreateRequest.Type

export const OrderNumBody = Schema.Struct({ myOrderNum: TokenText })

/** What the pay-order page shows: the QR content, the amount and when the order closes (ms since epoch). */
export const Precreate = Schema.Struct({
  myOrderNum: Schema.String,
  qrCode: Schema.String,
  totalAmount: Schema.String,
  closeTime: Schema.Number,
})
export type Precreate = typeof Precreate.Type

/** 0 none, 1 success, 2 failed, 3 paying. */
export const PayStatus = Schema.Literals([0, 1, 2, 3])
export type PayStatus = typeof PayStatus.Type

export const Order = Schema.Struct({
  myOrderNum: Schema.String,
  description: Schema.String,
  quantity: Schema.Number,
  buyType: Schema.Number,
  /** 0 balance, 1/9 Alipay, 2/10 WeChat, 3 UnionPay, 4 star coins, 5 activation code; null before payment. */
  payType: Schema.NullOr(Schema.Number),
  activationCode: Schema.String,
  /** the price in star coins. */
  starCoin: Schema.Number,
  totalAmount: Schema.String,
  /** ms since epoch. */
  ctime: Schema.Number,
  closeTime: Schema.Number,
  giveStarNum: Schema.Number,
  preferentialContent: Schema.String,
  /** 0 unpaid, 1 paid, 2 paying, 3 failed, 4 expired (5 cancelled: ours). */
  finishPay: Schema.Number,
  finishTime: Schema.NullOr(Schema.Number),
  userCardIds: Schema.Array(Schema.Number),
})
export type Order = typeof Order.Type

export const OrderListRequest = Schema.Struct({
  buyType: Schema.optional(Schema.NullOr(IntIn(0, 99))),
  pageNum: PageNum,
  pageSize: PageSize,
  /** absent = all; 0 unpaid (and paying); 1 paid. */
  finishPay: Schema.optional(Schema.NullOr(IntIn(0, 99))),
})
export const OrderPage = Schema.Struct({ list: Schema.Array(Order), total: Schema.Number })

/** A package a device can be upgraded to, priced for the device's remaining time. */
export const UpgradeOption = Schema.Struct({
  phoneType: Schema.String,
  phoneTypeName: Schema.String,
  buyVipType: Schema.String,
  /** days charged (every started day left). */
  days: Schema.Number,
  upgradePrice: Schema.String,
})
export type UpgradeOption = typeof UpgradeOption.Type
export const UpgradeListRequest = Schema.Struct({ userCardId: Id })
export const UpgradeSelectRequest = Schema.Struct({ userCardId: Id, phoneType: NameText })

export const payEndpoints = {
  mealTypeList: endpoint({
    name: 'mealTypeList', method: 'POST', repeatable: true, path: '/api/pay/v2/meal/info/tab/list',
    request: NoPayload, response: Schema.Array(MealTypeInfo),
  }),
  /** The online meal list (§3: read from data.mealList); §8: a failure is silently ignored. */
  getMealList: endpoint({
    name: 'getMealList', method: 'GET', repeatable: true, path: '/api/pay/pay/phoneMenuRule/getMealList',
    request: Schema.Struct({ phoneType: Schema.optional(NameText) }), response: Schema.Struct({ mealList: Schema.Array(Meal) }),
    silentFailure: true,
  }),
  getControlSwitch: endpoint({
    name: 'getControlSwitch', method: 'GET', repeatable: true, path: '/api/pay/v1/client/left/getControlSwitch',
    request: NoPayload, response: PaySwitch,
  }),
  getUserCouponSort: endpoint({
    name: 'getUserCouponSort', method: 'POST', repeatable: true, path: '/api/pay/v3/invitation/client/getUserCouponSort',
    request: CouponSortRequest, response: Schema.Array(Coupon),
  }),
  orderCreate: endpoint({
    name: 'orderCreate', method: 'POST', repeatable: false, idempotent: true, path: '/api/pay/v1/order/create',
    request: OrderCreateRequest, response: Schema.Struct({ myOrderNum: Schema.String }),
  }),
  starCoinsSpend: endpoint({
    name: 'starCoinsSpend', method: 'POST', repeatable: false, idempotent: true, path: '/api/pay/v2/starCoins/spend',
    request: OrderNumBody, response: Schema.Struct({ myOrderNum: Schema.String, starCoin: Schema.Number }),
  }),
  alipayPrecreate: endpoint({
    name: 'alipayPrecreate', method: 'POST', repeatable: false, idempotent: true, path: '/api/pay/v1/alipay/precreate',
    request: OrderNumBody, response: Precreate,
  }),
  getPayStatus: endpoint({
    name: 'getPayStatus', method: 'GET', repeatable: true, path: '/api/pay/v1/alipay/h5/spend/getPayStatus',
    request: OrderNumBody, response: PayStatus,
  }),
  getSystemTime: endpoint({
    name: 'getSystemTime', method: 'GET', repeatable: true, path: '/api/pay/v1/order/getSystemTime',
    request: NoPayload, response: Schema.Number,
  }),
  qryDegreeOrder: endpoint({
    name: 'qryDegreeOrder', method: 'POST', repeatable: true, path: '/api/pay/v1/order/info/qryDegreeOrder',
    request: OrderListRequest, response: OrderPage,
  }),
  orderDetail: endpoint({
    name: 'orderDetail', method: 'GET', repeatable: true, path: '/api/pay/v1/order/info/detail',
    request: OrderNumBody, response: Order,
  }),
  cancelOrderHandle: endpoint({
    name: 'cancelOrderHandle', method: 'GET', repeatable: false, idempotent: true, path: '/api/pay/v1/order/info/cancelOrderHandle',
    request: OrderNumBody, response: Schema.Boolean,
  }),
  cancelOrder: endpoint({
    name: 'cancelOrder', method: 'GET', repeatable: false, idempotent: true, path: '/api/pay/v1/order/info/cancelOrder',
    request: OrderNumBody, response: Schema.Boolean,
  }),
  getChangePackageList: endpoint({
    name: 'getChangePackageList', method: 'POST', repeatable: true, path: '/api/pay/v1/meal/upgrade/getChangePackageList/client',
    request: UpgradeListRequest, response: Schema.Array(UpgradeOption),
  }),
  selectReplaceCloud: endpoint({
    name: 'selectReplaceCloud', method: 'POST', repeatable: false, idempotent: true, path: '/api/pay/v1/meal/upgrade/selectReplaceCloud',
    request: UpgradeSelectRequest, response: Schema.Struct({ myOrderNum: Schema.String }),
  }),
} as const
