// The login form's field rules with their Chinese messages, and the phone rule every sign-in form shares. Kept apart
// from auth-form.ts so the first screen a visitor sees carries no other form's strings.
import { zhCN } from '../../i18n/zh-CN.ts'
import { isMobile } from '../../../worker/protocol/validators.ts'

const v = zhCN.validators

export type FieldErrors<K extends string> = Partial<Record<K, string>>

export const phoneError = (phone: string): string | undefined =>
  phone === '' ? v.phoneRequired : isMobile(phone) ? undefined : v.phoneInvalid

/** The login form: a password is only required (its format is the server's business, old passwords included). */
export const validateLogin = (phone: string, password: string): FieldErrors<'phone' | 'password'> => ({
  phone: phoneError(phone),
  password: password === '' ? v.passwordRequired : undefined,
})

export const hasErrors = (errors: FieldErrors<string>): boolean => Object.values(errors).some(Boolean)
