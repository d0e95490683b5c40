import { describe, expect, it } from 'vitest'
import { isCode, isIdCard, isMobile } from '../../../worker/protocol/validators.ts'
import { isAmount, isEmail, maskPhone } from '../../../src/lib/validators.ts'
import { isHttpUrl } from '../../../worker/protocol/domain.ts'
import { countdownDisabled, countdownIdle, countdownText, startCountdown, tickCountdown } from '../../../src/lib/countdown.ts'
import { hasErrors, validateLogin } from '../../../src/features/auth/login-fields.ts'

describe('validators (§5)', () => {
  it.each([
    ['13800138000', true], ['19912345678', true], ['23800138000', false], ['1380013800', false], ['138001380001', false], ['1380013800a', false],
  ])('mobile %s -> %s', (value, ok) => expect(isMobile(value)).toBe(ok))

  it.each([['a@b.cn', true], ['first.last+tag@mail.example.com', true], ['a@b', false], ['@b.cn', false], ['a b@c.cn', false]])(
    'e-mail %s -> %s', (value, ok) => expect(isEmail(value)).toBe(ok))

  it.each([['https://example.com/x?y=1', true], ['http://a.b', true], ['ftp://a.b', false], ['example.com', false], ['1', false]])(
    'url %s -> %s', (value, ok) => expect(isHttpUrl(value)).toBe(ok))

  it.each([
    ['11010519491231002X', true], ['11010519491231002x', true], ['110105194912310021', false], ['440524188001010014', true],
    ['123456789012345', true], ['12345678901234', false], ['1101051949123100XX', false],
  ])('ID card %s -> %s (GB 11643 checksum or 15 digits)', (value, ok) => expect(isIdCard(value)).toBe(ok))

  it('a code is digits only of the default length 6', () => {
    expect(isCode('123456')).toBe(true)
    expect(isCode('12345')).toBe(false)
    expect(isCode('12345a')).toBe(false)
  })

  it('a code length is configurable', () => {
    expect(isCode('1234', 4)).toBe(true)
    expect(isCode('123456', 4)).toBe(false)
  })

  it.each([['0', true], ['12', true], ['12.5', true], ['12.50', true], ['0.01', true], ['12.505', false], ['012', false], ['-1', false], ['1.', false]])(
    'amount %s -> %s', (value, ok) => expect(isAmount(value)).toBe(ok))

  it('masks the middle of a phone, keeping the first 3 and last 4 digits', () => {
    expect(maskPhone('13800138000')).toBe('138****8000')
  })
})

describe('verification-code countdown', () => {
  it('reads 获取验证码 before the first send and is enabled', () => {
    expect(countdownText(countdownIdle)).toBe('获取验证码')
    expect(countdownDisabled(countdownIdle)).toBe(false)
  })

  it('counts 60秒重新获取 down to 1秒重新获取 while disabled, then offers 重新获取', () => {
    let state = startCountdown()
    const texts: string[] = []
    while (state.remaining > 0) {
      texts.push(countdownText(state))
      expect(countdownDisabled(state)).toBe(true)
      state = tickCountdown(state)
    }
    expect(texts[0]).toBe('60秒重新获取')
    expect(texts).toHaveLength(60)
    expect(texts[59]).toBe('1秒重新获取')
    expect(countdownText(state)).toBe('重新获取')
    expect(countdownDisabled(state)).toBe(false)
  })
})

describe('login form validation', () => {
  it('asks for a phone and a password when both are empty', () => {
    expect(validateLogin('', '')).toEqual({ phone: '请输入手机号', password: '请输入密码' })
  })

  it('rejects a malformed phone in Chinese', () => {
    expect(validateLogin('12345', 'x').phone).toBe('请输入正确的手机号')
  })

  it('accepts a mainland mobile and any non-empty password', () => {
    expect(hasErrors(validateLogin('13800138000', 'Demo@2026'))).toBe(false)
  })
})
