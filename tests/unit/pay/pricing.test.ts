// The package pricing rules of api-notes, as the screens and the server both apply them.
import { describe, expect, it } from 'vitest'
import type { Coupon } from '../../../worker/protocol/pay.ts'
import {
  bestCoupon, couponApplies, dailyCents, upgradeCents, couponDeductionCents, formatYuan, maxPurchasable, payableCents, starCoinPrice, subtotalCents, toCents,
} from '../../../worker/protocol/pricing.ts'

const meal = { actualPrice: '39.90', originalPrice: '59.90', remainQuantity: -1, support: true, renewalType: 1 }
const fixed = (value: number, batchBuy = true, id = 1): Coupon => ({ id, couponName: 'c', couponType: 1, couponValue: value, deductionPrice: 0, maxValue: 0, batchBuy })
const discount = (zhe: number, maxValue = 0, batchBuy = true, id = 2): Coupon => ({ id, couponName: 'd', couponType: 2, couponValue: 0, deductionPrice: zhe, maxValue, batchBuy })

describe('pricing', () => {
  it('reads yuan strings as cents and writes them back with two decimals', () => {
    expect(toCents('39.90')).toBe(3990)
    expect(toCents('1.9')).toBe(190)
    expect(toCents('')).toBeNull()
    expect(toCents('abc')).toBeNull()
    expect(formatYuan(1)).toBe('0.01')
  })

  it('charges every unit at the actual price when discounted units are unlimited', () => {
    expect(subtotalCents(meal, 3)).toBe(3 * 3990)
  })

  it('charges units above remainQuantity at the original price', () => {
    expect(subtotalCents({ ...meal, remainQuantity: 1 }, 3)).toBe(3990 + 2 * 5990)
    expect(subtotalCents({ ...meal, remainQuantity: 0 }, 2)).toBe(2 * 5990)
  })

  it('falls back to the actual price when there is no original price', () => {
    expect(subtotalCents({ ...meal, originalPrice: '', remainQuantity: 0 }, 2)).toBe(2 * 3990)
  })

  it('applies coupons only when support is true and renewalType is 1', () => {
    expect(couponApplies(meal, fixed(5), 1, 'alipayQr')).toBe(true)
    expect(couponApplies({ ...meal, support: false }, fixed(5), 1, 'alipayQr')).toBe(false)
    expect(couponApplies({ ...meal, renewalType: 2 }, fixed(5), 1, 'alipayQr')).toBe(false)
  })

  it('never applies a coupon to a star coin payment', () => {
    expect(couponApplies(meal, fixed(5), 1, 'starCoin')).toBe(false)
    expect(payableCents(meal, 1, fixed(5), 'starCoin')).toBe(3990)
  })

  it('needs batchBuy for a coupon on several devices', () => {
    expect(couponApplies(meal, fixed(5, false), 2, 'alipayQr')).toBe(false)
    expect(couponApplies(meal, fixed(5, true), 2, 'alipayQr')).toBe(true)
  })

  it('takes a fixed amount or a discount in 折 capped by maxValue', () => {
    expect(couponDeductionCents(fixed(10), 3990)).toBe(1000)
    expect(couponDeductionCents(discount(8), 10000)).toBe(2000)
    expect(couponDeductionCents(discount(8, 5), 10000)).toBe(500)
  })

  it('never charges less than 0.01', () => {
    expect(payableCents({ ...meal, actualPrice: '1.99' }, 1, fixed(10), 'alipayQr')).toBe(1)
  })

  it('prices star coins at 10x the yuan price, rounded up to whole coins', () => {
    expect(starCoinPrice(meal, 1)).toBe(399)
    expect(starCoinPrice({ ...meal, actualPrice: '1.99' }, 1)).toBe(20)
  })

  it('preselects the coupon taking the most off among those that apply', () => {
    const coupons = [fixed(5, true, 1), discount(8.5, 20, false, 2), fixed(10, false, 3)]
    expect(bestCoupon(meal, coupons, 1, 'alipayQr')?.id).toBe(3)
    expect(bestCoupon(meal, coupons, 2, 'alipayQr')?.id).toBe(1)
    expect(bestCoupon(meal, coupons, 1, 'starCoin')).toBeNull()
  })

  it('lets an account grow to 60 devices and no further', () => {
    expect(maxPurchasable(5)).toBe(55)
    expect(maxPurchasable(60)).toBe(0)
    expect(maxPurchasable(61)).toBe(0)
  })

  it('prices an upgrade as the daily difference for every started day left, and only upwards', () => {
    const standard = dailyCents([{ day: 1, actualPrice: '1.99' }, { day: 30, actualPrice: '39.90' }])!
    const performance = dailyCents([{ day: 30, actualPrice: '69.90' }])!
    expect(standard).toBe(133)
    expect(upgradeCents(standard, performance, 24 * 60)).toBe(100)
    expect(upgradeCents(standard, performance, 24 * 60 + 1)).toBe(200)
    expect(upgradeCents(performance, standard, 24 * 60)).toBeNull()
    expect(upgradeCents(standard, performance, 0)).toBeNull()
  })
})
