// The account module's pure rules: masking, names, codes, coupon status and page bounds.
import { describe, expect, it } from 'vitest'
import { couponStatusOf, maskIdCard, maskName } from '../../../server/account/rules.ts'
import { pageOf } from '../../../worker/protocol/paging.ts'
import { isActivationCode, isRealName, nicknameOk, normaliseCode } from '../../../worker/protocol/validators.ts'

const DAY = 86_400_000

describe('account rules', () => {
  it('masks a name after its first character and an ID card between its first 3 and last 4', () => {
    expect(maskName('张三')).toBe('张*')
    expect(maskName('欧阳娜娜')).toBe('欧***')
    expect(maskIdCard('110101199003077571')).toBe('110***********7571')
  })

  it('accepts Chinese names with a middle dot and refuses Latin letters or a single character', () => {
    expect(isRealName('买买提·艾力')).toBe(true)
    expect(isRealName('张')).toBe(false)
    expect(isRealName('Zhang San')).toBe(false)
  })

  it('takes a nickname of 1 to 16 characters', () => {
    expect(nicknameOk('云')).toBe(true)
    expect(nicknameOk('  ')).toBe(false)
    expect(nicknameOk('一二三四五六七八九十一二三四五六七')).toBe(false)
  })

  it('reads an activation code without spaces, in capitals, 15 letters or digits', () => {
    expect(normaliseCode(' cpn2026 spring01 ')).toBe('CPN2026SPRING01')
    expect(isActivationCode('CPN2026SPRING01')).toBe(true)
    expect(isActivationCode('CPN2026SPRING0')).toBe(false)
  })

  it('decides a coupon state: used, then held by an order, then expired, else effective', () => {
    const now = Date.now()
    const future = new Date(now + DAY)
    const past = new Date(now - DAY)
    expect(couponStatusOf({ used_at: past, locked_order: 'o', end_time: past }, now)).toBe(3)
    expect(couponStatusOf({ used_at: null, locked_order: 'o', end_time: past }, now)).toBe(2)
    expect(couponStatusOf({ used_at: null, locked_order: null, end_time: past }, now)).toBe(4)
    expect(couponStatusOf({ used_at: null, locked_order: null, end_time: future }, now)).toBe(1)
  })

  it('bounds pages: page 1 of 10 by default, at most 50 a page', () => {
    expect(pageOf({})).toEqual({ limit: 10, offset: 0 })
    expect(pageOf({ pageNum: 3, pageSize: 500 })).toEqual({ limit: 50, offset: 100 })
    expect(pageOf({ pageNum: -2, pageSize: 0 })).toEqual({ limit: 10, offset: 0 })
  })
})
