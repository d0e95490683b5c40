// Pure input rules of the account screens, shared with the reference server so both refuse the same input:
// real names, nicknames, activation codes, security codes.
import { ACTIVATION_CODE_LENGTH, NICKNAME_MAX, SECURITY_CODE_LENGTH } from '../../../worker/protocol/account.ts'

/** A Chinese legal name: 2 to 20 Chinese characters, the middle dot allowed between parts (少数民族姓名). */
export const isRealName = (name: string): boolean => {
  const n = [...name].length
  return /^[\u4e00-\u9fa5]+(·[\u4e00-\u9fa5]+)*$/.test(name) && n >= 2 && n <= 20
}

/** A nickname: 1 to NICKNAME_MAX characters after trimming, no control characters. */
export const nicknameOk = (nick: string): boolean => {
  const n = [...nick.trim()].length
  // eslint-disable-next-line no-control-regex
  return n >= 1 && n <= NICKNAME_MAX && !/[\u0000-\u001f\u007f]/.test(nick)
}

/** Activation codes are typed loosely: spaces dropped, letters upper-cased. */
export const normaliseCode = (code: string): string => code.replace(/\s+/g, '').toUpperCase()
export const isActivationCode = (code: string): boolean => new RegExp(`^[0-9A-Z]{${ACTIVATION_CODE_LENGTH}}$`).test(code)

export const isSecurityCode = (code: string): boolean => new RegExp(`^\\d{${SECURITY_CODE_LENGTH}}$`).test(code)
