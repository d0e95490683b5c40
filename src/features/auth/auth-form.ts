// Field rules of the login and SMS-code screens (phone, code, password twice, invitation code) with the Chinese
// message of each.
import { CODE_LENGTH } from '../../../worker/protocol/constants.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { INVITE_CODE_MAX, isCode, isMobile, isPassword } from '../../../worker/protocol/validators.ts'

const v = zhCN.validators
const t = zhCN.auth

export const phoneError = (phone: string): string | undefined =>
  phone === '' ? v.phoneRequired : isMobile(phone) ? undefined : v.phoneInvalid

export const codeError = (code: string): string | undefined =>
  code === '' ? v.codeRequired : isCode(code) ? undefined : v.codeInvalid(CODE_LENGTH)

export const passwordError = (password: string): string | undefined =>
  password === '' ? v.passwordRequired : isPassword(password) ? undefined : t.passwordInvalid

/** The login form: a password is only required (its format is the server's business, old passwords included). */
export const validateLogin = (phone: string, password: string): FieldErrors<'phone' | 'password'> => ({
  phone: phoneError(phone),
  password: password === '' ? v.passwordRequired : undefined,
})

export const confirmError = (password: string, confirm: string): string | undefined =>
  confirm === '' ? t.confirmRequired : confirm === password ? undefined : t.confirmMismatch

export const inviteCodeError = (inviteCode: string): string | undefined =>
  inviteCode.length > INVITE_CODE_MAX ? t.inviteCodeTooLong(INVITE_CODE_MAX) : undefined

/** Keeps what a code input may hold: digits, at most CODE_LENGTH of them. */
export const cleanCode = (raw: string): string => raw.replace(/\D/g, '').slice(0, CODE_LENGTH)

/** Keeps what a phone input may hold: digits, at most 11. */
export const cleanPhone = (raw: string): string => raw.replace(/\D/g, '').slice(0, 11)

export type FieldErrors<K extends string> = Partial<Record<K, string>>

export const hasErrors = (errors: FieldErrors<string>): boolean => Object.values(errors).some(Boolean)
