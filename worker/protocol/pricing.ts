// Package pricing rules (api-notes "Packages"), pure and shared by the screens and the reference server: amounts are
// whole cents inside, yuan strings at the edges.
import { MAX_DEVICES_PER_ACCOUNT } from './constants.ts'
import type { Coupon, Meal } from './pay.ts'

/** api-notes: the minimum payable is 0.01 yuan. */
export const MIN_PAYABLE_CENTS = 1
/** api-notes: a star coin price is 10x the yuan price. */
export const STAR_COINS_PER_YUAN = 10

/** Cash methods (Alipay H5, WeChat H5, the Alipay QR code) share one price; star coins have their own. */
export type PayMethod = 'alipayH5' | 'wxpayH5' | 'alipayQr' | 'starCoin'

/** '39.90' -> 3990; '' or garbage -> null. */
export const toCents = (yuan: string | number): number | null => {
  const text = String(yuan).trim()
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null
  return Math.round(Number(text) * 100)
}

/** 3990 -> '39.90'. */
export const formatYuan = (cents: number): string => (cents / 100).toFixed(2)

type PricedMeal = Pick<Meal, 'actualPrice' | 'originalPrice' | 'remainQuantity' | 'support' | 'renewalType'>

/** Units up to remainQuantity (-1 = unlimited) at actualPrice, the rest at originalPrice (actualPrice when empty). */
export const subtotalCents = (meal: PricedMeal, quantity: number): number => {
  const actual = toCents(meal.actualPrice) ?? 0
  const original = toCents(meal.originalPrice) ?? actual
  const discounted = meal.remainQuantity < 0 ? quantity : Math.min(quantity, meal.remainQuantity)
  return discounted * actual + (quantity - discounted) * original
}

/** Coupons apply only to a meal with support && renewalType 1, never to star coins, and to several devices only with batchBuy. */
export const couponApplies = (meal: PricedMeal, coupon: Coupon, quantity: number, method: PayMethod): boolean =>
  meal.support && meal.renewalType === 1 && method !== 'starCoin' && (quantity <= 1 || coupon.batchBuy)

/** What a coupon takes off a subtotal: fixed couponValue, or (10 - 折)/10 of it capped by maxValue (> 0); never more than the subtotal. */
export const couponDeductionCents = (coupon: Coupon, subtotal: number): number => {
  let off = 0
  if (coupon.couponType === 1) off = Math.round(coupon.couponValue * 100)
  else if (coupon.couponType === 2 && coupon.deductionPrice > 0 && coupon.deductionPrice < 10) {
    off = Math.round((subtotal * (10 - coupon.deductionPrice)) / 10)
    if (coupon.maxValue > 0) off = Math.min(off, Math.round(coupon.maxValue * 100))
  }
  return Math.max(0, Math.min(off, subtotal))
}

/** The amount to pay in cents: the subtotal minus an applicable coupon, at least 0.01. */
export const payableCents = (meal: PricedMeal, quantity: number, coupon: Coupon | null, method: PayMethod): number => {
  const subtotal = subtotalCents(meal, quantity)
  const off = coupon && couponApplies(meal, coupon, quantity, method) ? couponDeductionCents(coupon, subtotal) : 0
  return Math.max(MIN_PAYABLE_CENTS, subtotal - off)
}

/** The star coin price: 10x the yuan subtotal (no coupon), rounded up to whole coins. */
export const starCoinPrice = (meal: PricedMeal, quantity: number): number =>
  Math.ceil((Math.max(MIN_PAYABLE_CENTS, subtotalCents(meal, quantity)) * STAR_COINS_PER_YUAN) / 100)

/** The coupon taking the most off among those that apply (ties: the first, i.e. the server's order); null if none. */
export const bestCoupon = (meal: PricedMeal, coupons: ReadonlyArray<Coupon>, quantity: number, method: PayMethod): Coupon | null => {
  const subtotal = subtotalCents(meal, quantity)
  let best: Coupon | null = null
  let bestOff = 0
  for (const c of coupons) {
    if (!couponApplies(meal, c, quantity, method)) continue
    const off = couponDeductionCents(c, subtotal)
    if (off > bestOff) {
      best = c
      bestOff = off
    }
  }
  return best
}

/** How many devices one more purchase may add: 60 minus the devices I own, at least 0. */
export const maxPurchasable = (ownedCount: number): number => Math.max(0, MAX_DEVICES_PER_ACCOUNT - ownedCount)

/** Server-side tier of a phone type (the demo backend has two): PERFORMANCE -> SVIP, anything else VIP. */
export const tierOfPhoneType = (phoneType: string): 'VIP' | 'SVIP' => (phoneType === 'PERFORMANCE' ? 'SVIP' : 'VIP')

/** Daily price of a phone type, in cents: its longest meal's actual price per day (null without meals). */
export const dailyCents = (meals: ReadonlyArray<Pick<Meal, 'day' | 'actualPrice'>>): number | null => {
  const longest = [...meals].filter((m) => m.day > 0).sort((a, b) => b.day - a.day)[0]
  const cents = longest ? toCents(longest.actualPrice) : null
  return longest && cents !== null ? cents / longest.day : null
}

/** An upgrade costs the daily price difference for every started day left, at least 0.01; null if not an upgrade. */
export const upgradeCents = (currentDaily: number, targetDaily: number, minutesLeft: number): number | null => {
  if (targetDaily <= currentDaily || minutesLeft <= 0) return null
  const days = Math.ceil(minutesLeft / (24 * 60))
  return Math.max(MIN_PAYABLE_CENTS, Math.round((targetDaily - currentDaily) * days))
}
