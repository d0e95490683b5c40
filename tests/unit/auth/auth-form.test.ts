// Field rules of the SMS-code screens: phone, 6-digit code, password of 6-16 letters and digits, confirmation,
// invitation code of at most 8 characters.
import { describe, expect, it } from 'vitest'
import { cleanCode, cleanPhone, codeError, confirmError, inviteCodeError, passwordError } from '../../../src/features/auth/auth-form.ts'
import { hasErrors, phoneError } from '../../../src/features/auth/login-fields.ts'
import { isPassword } from '../../../worker/protocol/validators.ts'

describe('auth form rules', () => {
  it('asks for a phone, then for a mainland mobile number', () => {
    expect(phoneError('')).toBe('请输入手机号')
    expect(phoneError('2380013800')).toBe('请输入正确的手机号')
    expect(phoneError('23800138000')).toBe('请输入正确的手机号')
    expect(phoneError('13800138000')).toBeUndefined()
  })

  it('asks for the code, then for exactly six digits', () => {
    expect(codeError('')).toBe('请输入验证码')
    expect(codeError('12345')).toBe('请输入6位数字验证码')
    expect(codeError('123456')).toBeUndefined()
  })

  it('takes passwords of 6 to 16 letters and digits with at least one of each', () => {
    expect(['abc123', 'A1b2C3d4E5f6G7h8'].map(isPassword)).toEqual([true, true])
    expect(['ab12', 'abcdefgh', '12345678', 'abc123!', 'A1b2C3d4E5f6G7h8i'].map(isPassword)).toEqual([false, false, false, false, false])
    expect(passwordError('')).toBe('请输入密码')
    expect(passwordError('abcdef')).toBe('密码须为6-16位，且同时包含字母和数字')
  })

  it('wants the password typed twice the same way', () => {
    expect(confirmError('abc123', '')).toBe('请再次输入密码')
    expect(confirmError('abc123', 'abc124')).toBe('两次输入的密码不一致')
    expect(confirmError('abc123', 'abc123')).toBeUndefined()
  })

  it('allows an empty invitation code and at most 8 characters', () => {
    expect(inviteCodeError('')).toBeUndefined()
    expect(inviteCodeError('demo1234')).toBeUndefined()
    expect(inviteCodeError('wx_unbound')).toBe('邀请码最多8位')
  })

  it('keeps only digits in code and phone inputs, cut to their length', () => {
    expect(cleanCode('12a34 5678')).toBe('123456')
    expect(cleanPhone('138 0013 8000 9')).toBe('13800138000')
  })

  it('reports whether any field has an error', () => {
    expect(hasErrors({ phone: undefined, code: undefined })).toBe(false)
    expect(hasErrors({ phone: undefined, code: '请输入验证码' })).toBe(true)
  })
})
