// Order screen rules: countdown text, the payment switch per OS with its default tip, URLs that may be opened.
import { describe, expect, it } from 'vitest'
import { countdownText, finishPayText, isHttpUrl, isUnpaid, payBlockedText, payTypeText } from '../../../src/features/pay/order-rules.ts'

const android = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 Mobile Safari/537.36'
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const sw = (iosBuySwitch: boolean, androidBuySwitch: boolean, payTips = '') => ({ iosBuySwitch, androidBuySwitch, osName: '', payTips })

describe('order rules', () => {
  it('counts down as mm:ss, with hours when needed, never below zero', () => {
    expect(countdownText(14 * 60_000 + 59_000)).toBe('14:59')
    expect(countdownText(3_600_000 + 61_000)).toBe('1:01:01')
    expect(countdownText(-5)).toBe('00:00')
  })

  it('blocks paying only on the OS whose switch is off, with payTips or the default text', () => {
    expect(payBlockedText(sw(true, true), android)).toBeNull()
    expect(payBlockedText(sw(false, true), android)).toBeNull()
    expect(payBlockedText(sw(false, true), iphone)).toBe('因相关政策调整，该功能暂不可用')
    expect(payBlockedText(sw(true, false, '暂停购买'), android)).toBe('暂停购买')
    expect(payBlockedText(null, android)).toBeNull()
  })

  it('opens only absolute http(s) URLs', () => {
    expect(isHttpUrl('https://qr.alipay.com/x')).toBe(true)
    expect(isHttpUrl('javascript:alert(1)')).toBe(false)
    expect(isHttpUrl('/relative')).toBe(false)
  })

  it('names pay types and order states, and treats paying orders as unpaid', () => {
    expect(payTypeText(9)).toBe('支付宝')
    expect(payTypeText(4)).toBe('星币')
    expect(payTypeText(null)).toBe('')
    expect(finishPayText(4)).toBe('已过期')
    expect(isUnpaid(2)).toBe(true)
    expect(isUnpaid(1)).toBe(false)
  })
})
