// Field rules of the SMS-code screens (code, password twice, invitation code) with the Chinese message of each; the
// phone rule and the login form's are in login-fields.ts (the login screen's chunk carries only those).
import { CODE_LENGTH } from '../../../worker/protocol/constants.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { INVITE_CODE_MAX, isCode, isPassword } from '../../../worker/protocol/validators.ts'

const v = zhCN.validators
const t = zhCN.auth

export const codeError = (code: string): string | undefined =>
  code === '' ? v.codeRequired : isCode(code) ? undefined : v.codeInvalid(CODE_LENGTH)

export const passwordError = (password: string): string | undefined =>
  password === '' ? v.passwordRequired : isPassword(password) ? undefined : t.passwordInvalid

export const confirmError = (password: string, confirm: string): string | undefined =>
  confirm === '' ? t.confirmRequired : confirm === password ? undefined : t.confirmMismatch

export const inviteCodeError = (inviteCode: string): string | undefined =>
  inviteCode.length > INVITE_CODE_MAX ? t.inviteCodeTooLong(INVITE_CODE_MAX) : undefined

/** Keeps what a code input may hold: digits, at most CODE_LENGTH of them. */
export const cleanCode = (raw: string): string => raw.replace(/\D/g, '').slice(0, CODE_LENGTH)

/** Keeps what a phone input may hold: digits, at most 11. */
export const cleanPhone = (raw: string): string => raw.replace(/\D/g, '').slice(0, 11)
