// Order screen rules: countdown text, the payment switch per OS with its default tip, URLs that may be opened.
import { describe, expect, it } from 'vitest'
import { isHttpUrl, isUnpaid, resolveHttpUrl as h5PayTarget } from '../../../worker/protocol/domain.ts'
import { countdownText, finishPayText, payBlockedText, payTypeText } from '../../../src/features/pay/order-rules.ts'
import { osNameOf } from '../../../worker/protocol/pay-switch.ts'

const android = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 Mobile Safari/537.36'
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const sw = (iosBuySwitch: boolean, androidBuySwitch: boolean, payTips = '', osName = '') => ({ iosBuySwitch, androidBuySwitch, osName, payTips })

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

  it('follows the osName the server sends over the user agent', () => {
    expect(payBlockedText(sw(false, true, '', 'ios'), android)).toBe('因相关政策调整，该功能暂不可用')
    expect(payBlockedText(sw(false, true, '', 'android'), iphone)).toBeNull()
    expect(payBlockedText(sw(true, false, '', 'windows'), iphone)).toBe('因相关政策调整，该功能暂不可用')
  })

  it('names the OS of a user agent as uni-app does', () => {
    expect(osNameOf(android)).toBe('android')
    expect(osNameOf(iphone)).toBe('ios')
    expect(osNameOf('Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)')).toBe('ios')
    expect(osNameOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15')).toBe('macos')
    expect(osNameOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0')).toBe('windows')
    expect(osNameOf('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120.0')).toBe('linux')
    expect(osNameOf('Mozilla/5.0 (Linux; Android 12; HarmonyOS; ALN-AL00)')).toBe('harmonyos')
    expect(osNameOf('')).toBe('other')
  })

  it('opens only absolute http(s) URLs', () => {
    expect(isHttpUrl('https://qr.alipay.com/x')).toBe(true)
    expect(isHttpUrl('javascript:alert(1)')).toBe(false)
    expect(isHttpUrl('/relative')).toBe(false)
  })

  it('opens an H5 payment page only over http(s), resolving a server path against the app', () => {
    const here = 'http://127.0.0.1:8080/cloud/phone/web/#/package/purchase/purchase'
    expect(h5PayTarget('/api/pay/reference-gateway/abc', here)).toBe('http://127.0.0.1:8080/api/pay/reference-gateway/abc')
    expect(h5PayTarget('https://mclient.alipay.com/cashier?x=1', here)).toBe('https://mclient.alipay.com/cashier?x=1')
    expect(h5PayTarget('javascript:alert(1)', here)).toBeNull()
    expect(h5PayTarget('data:text/html,<b>x</b>', here)).toBeNull()
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
