// Field validation of the login form, with the Chinese messages shown under each field.
import { zhCN } from '../../i18n/zh-CN.ts'
import { isMobile } from '../../lib/validators.ts'

export interface LoginFieldErrors {
  readonly phone?: string
  readonly password?: string
}

export const validateLogin = (phone: string, password: string): LoginFieldErrors => ({
  phone: phone === '' ? zhCN.validators.phoneRequired : isMobile(phone) ? undefined : zhCN.validators.phoneInvalid,
  password: password === '' ? zhCN.validators.passwordRequired : undefined,
})

export const hasErrors = (errors: LoginFieldErrors): boolean => Boolean(errors.phone || errors.password)
