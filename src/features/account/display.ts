// What the account screens show: a coupon's face value and terms, the invitation link.
import { CouponType, type Coupon } from '../../../worker/protocol/account.ts'
import { zhCN } from '../../i18n/zh-CN.ts'

const t = zhCN.account.coupons

/** The big figure of a coupon and its unit: "10" 元 for an amount, "8.5" 折 for a discount. */
export const couponFace = (c: Pick<Coupon, 'couponType' | 'couponValue' | 'deductionPrice'>): { amount: string; unit: string } =>
  c.couponType === CouponType.discount
    ? { amount: String(c.deductionPrice), unit: '折' }
    : { amount: String(c.couponValue), unit: t.yuan }

/** The small print under a coupon's name: threshold, cap, batch use. */
export const couponTerms = (c: Pick<Coupon, 'couponType' | 'minAmount' | 'maxValue' | 'batchBuy'>): string[] => [
  c.minAmount > 0 ? t.threshold(c.minAmount) : t.noThreshold,
  ...(c.couponType === CouponType.discount && c.maxValue !== null ? [t.cap(c.maxValue)] : []),
  ...(c.batchBuy ? [t.batch] : []),
]

/** decisions.md: `{origin}/cloud/phone/web/#/pages/login/login?invitationUserName={username}`. */
export const inviteLink = (origin: string, username: string): string =>
  `${origin}/cloud/phone/web/#/pages/login/login?invitationUserName=${encodeURIComponent(username)}`
