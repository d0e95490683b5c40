// Account area: personal centre (nickname, avatar, left/info), security code, real-name authentication, coupons,
// activation codes, star coins and online customer service (product-spec §2, §7; api-notes "Login and account").
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { CodeText, Id, IntIn, NameText, PageRequest, TokenText } from './limits.ts'

/** api-notes: the "my" page header. */
export const LeftInfo = Schema.Struct({ surfaceName: Schema.String, starCoin: Schema.Number, couponNum: Schema.Number })
export type LeftInfo = typeof LeftInfo.Type

export const UpdatePersonalInfoRequest = Schema.Struct({ nickName: NameText })

/** Avatar: an absolute http(s) URL, or null for the default avatar. */
export const HeadPortrait = Schema.Struct({ headPortrait: Schema.NullOr(Schema.String) })

/** Security state of the account (ours): real-name status, masked identity, whether a security code is set. */
export const AccountSecurity = Schema.Struct({
  verified: Schema.Boolean,
  /** masked: 张*、欧阳** keep the first character. */
  realName: Schema.NullOr(Schema.String),
  /** masked: first 3 and last 4 characters. */
  idCard: Schema.NullOr(Schema.String),
  hasSecondaryPassword: Schema.Boolean,
})
export type AccountSecurity = typeof AccountSecurity.Type

export const CheckPhoneCodeRequest = Schema.Struct({ code: CodeText })
/** A short-lived ticket proving the SMS check, spent by updateUserSecondaryPassword. */
export const CheckPhoneCodeResponse = Schema.Struct({ ticket: Schema.String })
export const UpdateSecondaryPasswordRequest = Schema.Struct({ ticket: TokenText, secondaryPassword: CodeText })

export const IdentityRequest = Schema.Struct({ realName: NameText, idCard: CodeText })

/** Coupon list tabs (api-notes): effective, in use (held by an unpaid order), used, invalid (expired). */
export const CouponStatus = { effective: 1, inUse: 2, used: 3, invalid: 4 } as const
export type CouponStatus = (typeof CouponStatus)[keyof typeof CouponStatus]
/** couponType 1 fixed amount (couponValue yuan), 2 discount (deductionPrice in 折). */
export const CouponType = { amount: 1, discount: 2 } as const

export const Coupon = Schema.Struct({
  id: Schema.Number,
  couponName: Schema.String,
  couponType: Schema.Number,
  /** yuan off, for couponType 1. */
  couponValue: Schema.Number,
  /** 折 (8.5 = 15% off), for couponType 2. */
  deductionPrice: Schema.Number,
  /** the most a discount coupon takes off, yuan; null: no cap. */
  maxValue: Schema.NullOr(Schema.Number),
  /** the order amount needed, yuan; 0: no threshold. */
  minAmount: Schema.Number,
  /** usable when buying several devices at once. */
  batchBuy: Schema.Boolean,
  status: Schema.Number,
  /** ISO times. */
  startTime: Schema.String,
  endTime: Schema.String,
})
export type Coupon = typeof Coupon.Type

export const CouponPageRequest = Schema.Struct({ status: IntIn(0, 99), ...PageRequest.fields })
export const CouponPage = Schema.Struct({ list: Schema.Array(Coupon), total: Schema.Number })
export type CouponPage = typeof CouponPage.Type

export const ActivationCodeType = { device: 1, package: 2, coupon: 3 } as const
/** codeType 1: status 0 done, 1 the user chooses a device to apply it to next. */
export const DeviceCodeStatus = { done: 0, chooseDevice: 1 } as const

export const ExchangeRequest = Schema.Struct({ code: CodeText })
export const ExchangeResponse = Schema.Struct({
  codeType: Schema.Number,
  status: Schema.Number,
  /** what the code gave, for the result text: a coupon name, a package name, or "N天". */
  couponName: Schema.optional(Schema.String),
  mealName: Schema.optional(Schema.String),
  days: Schema.optional(Schema.Number),
  /** the device created or extended, when one was. */
  diskName: Schema.optional(Schema.String),
})
export type ExchangeResponse = typeof ExchangeResponse.Type
export const ApplyDeviceCodeRequest = Schema.Struct({ code: CodeText, userCardId: Id })
export const ApplyDeviceCodeResponse = Schema.Struct({ diskName: Schema.String, days: Schema.Number })

/** Star coin records: got (type 1) and used (type 2); amount is positive either way. */
export const StarCoinRecord = Schema.Struct({
  id: Schema.Number,
  amount: Schema.Number,
  description: Schema.String,
  ctime: Schema.String,
})
export type StarCoinRecord = typeof StarCoinRecord.Type
export const StarCoinPage = Schema.Struct({ list: Schema.Array(StarCoinRecord), total: Schema.Number })
export type StarCoinPage = typeof StarCoinPage.Type

/** Online customer service: hours and phone as text, link an http(s) URL or null. */
export const CustomInfo = Schema.Struct({
  serviceTime: Schema.String,
  phone: Schema.String,
  link: Schema.NullOr(Schema.String),
  tips: Schema.String,
})
export type CustomInfo = typeof CustomInfo.Type

export const accountEndpoints = {
  updatePersonalInfo: endpoint({
    name: 'updatePersonalInfo', method: 'PUT', repeatable: true, path: '/api/user/v1/client/personalInfo/updatePersonalInfo',
    request: UpdatePersonalInfoRequest, response: Schema.Null,
  }),
  getHeadPortrait: endpoint({
    name: 'getHeadPortrait', method: 'GET', repeatable: true, path: '/api/user/v5/user/getHeadPortrait',
    request: NoPayload, response: HeadPortrait,
  }),
  leftInfo: endpoint({
    name: 'leftInfo', method: 'GET', repeatable: true, path: '/api/pay/v1/client/left/info',
    request: NoPayload, response: LeftInfo,
  }),
  accountSecurity: endpoint({
    name: 'accountSecurity', method: 'GET', repeatable: true, path: '/api/user/v5/user/getAccountSecurity',
    request: NoPayload, response: AccountSecurity,
  }),
  checkPhoneCode: endpoint({
    name: 'checkPhoneCode', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/user/checkPhoneCode',
    request: CheckPhoneCodeRequest, response: CheckPhoneCodeResponse,
  }),
  updateUserSecondaryPassword: endpoint({
    name: 'updateUserSecondaryPassword', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/user/updateUserSecondaryPassword',
    request: UpdateSecondaryPasswordRequest, response: Schema.Null,
  }),
  identityVerification: endpoint({
    name: 'identityVerification', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/user/identityVerification',
    request: IdentityRequest, response: AccountSecurity,
  }),
  couponPage: endpoint({
    name: 'couponPage', method: 'GET', repeatable: true, path: '/api/pay/v3/invitation/client/getUserCouponPage',
    request: CouponPageRequest, response: CouponPage,
  }),
  exchangeActivationCode: endpoint({
    name: 'exchangeActivationCode', method: 'POST', repeatable: false, idempotent: true, path: '/api/pay/v1/activation/exchangeActivationCode',
    request: ExchangeRequest, response: ExchangeResponse,
  }),
  applyDeviceActivationCode: endpoint({
    name: 'applyDeviceActivationCode', method: 'POST', repeatable: false, idempotent: true, path: '/api/pay/v1/activation/applyDeviceActivationCode',
    request: ApplyDeviceCodeRequest, response: ApplyDeviceCodeResponse,
  }),
  starCoins: endpoint({
    name: 'starCoins', method: 'GET', repeatable: true, path: '/api/pay/v5/starCoins',
    request: NoPayload, response: Schema.Number,
  }),
  starCoinGotPage: endpoint({
    name: 'starCoinGotPage', method: 'GET', repeatable: true, path: '/api/pay/v1/starCoins/info/get/coin/page',
    request: PageRequest, response: StarCoinPage,
  }),
  starCoinUsedPage: endpoint({
    name: 'starCoinUsedPage', method: 'GET', repeatable: true, path: '/api/pay/v1/starCoins/info/use/coin/page',
    request: PageRequest, response: StarCoinPage,
  }),
  customInfo: endpoint({
    name: 'customInfo', method: 'GET', repeatable: true, path: '/api/public/v1/custom/info',
    request: NoPayload, response: CustomInfo,
  }),
} as const
