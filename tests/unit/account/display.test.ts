// What the account screens show and accept: coupon faces and terms, the invitation link, sharing with a fallback,
// and the input rules shared with the server.
import { describe, expect, it } from 'vitest'
import { couponFace, couponTerms, inviteLink } from '../../../src/features/account/display.ts'
import { shareLink } from '../../../src/features/account/share.ts'
import { isSecurityCode } from '../../../worker/protocol/validators.ts'

describe('coupon display', () => {
  it('shows a fixed-amount coupon in 元 and a discount coupon in 折', () => {
    expect(couponFace({ couponType: 1, couponValue: 10, deductionPrice: 0 })).toEqual({ amount: '10', unit: '元' })
    expect(couponFace({ couponType: 2, couponValue: 0, deductionPrice: 8.5 })).toEqual({ amount: '8.5', unit: '折' })
  })

  it('lists the threshold, the cap of a discount and batch use', () => {
    expect(couponTerms({ couponType: 1, minAmount: 0, maxValue: null, batchBuy: false })).toEqual(['无门槛'])
    expect(couponTerms({ couponType: 2, minAmount: 30, maxValue: 20, batchBuy: true })).toEqual(['满30元可用', '最高抵扣20元', '可用于批量购买'])
  })
})

describe('invitation link', () => {
  it('points at the login page with the username (decisions.md)', () => {
    expect(inviteLink('https://a.example', 'demo')).toBe('https://a.example/cloud/phone/web/#/pages/login/login?invitationUserName=demo')
  })

  it('uses Web Share when there is one, and copies when there is none or it fails', async () => {
    const copied: string[] = []
    const copy = async (text: string) => void copied.push(text)
    expect(await shareLink('u', 't', { share: async () => undefined, copy })).toBe('shared')
    expect(await shareLink('u', 't', { copy })).toBe('copied')
    expect(await shareLink('u2', 't', { share: async () => { throw new Error('no') }, copy })).toBe('copied')
    expect(copied).toEqual(['u', 'u2'])
  })

  it('does nothing more when the user closes the share sheet', async () => {
    const abort = Object.assign(new Error('closed'), { name: 'AbortError' })
    expect(await shareLink('u', 't', { share: async () => { throw abort }, copy: async () => undefined })).toBe('cancelled')
    expect(await shareLink('u', 't', {})).toBe('failed')
  })
})

describe('security code', () => {
  it('is exactly six digits', () => {
    expect(isSecurityCode('123456')).toBe(true)
    expect(isSecurityCode('12345')).toBe(false)
    expect(isSecurityCode('12345a')).toBe(false)
  })
})
