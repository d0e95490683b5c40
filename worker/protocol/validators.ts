// The input rules of product-spec §5 and of the account screens, shared by the tab and the reference server so both
// refuse the same input: phone numbers, codes, passwords, ID cards, real names, nicknames, device names, activation codes.
// Schema-free on purpose: the login screen's chunk imports it.
import { CODE_LENGTH } from './constants.ts'

export const NICKNAME_MAX = 16
/** The security code is 6 digits (§9 code input length). */
export const SECURITY_CODE_LENGTH = 6
/** api-notes: activation codes are 15 characters. */
export const ACTIVATION_CODE_LENGTH = 15
/** api-notes: an invitation code is at most 8 characters (it is the inviter's username). */
export const INVITE_CODE_MAX = 8

/** Mainland mobile number: starts with 1, 11 digits. */
export const isMobile = (value: string): boolean => /^1\d{10}$/.test(value)

/** Digits-only verification code of the given length (default 6). */
export const isCode = (value: string, length: number = CODE_LENGTH): boolean =>
  new RegExp(`^\\d{${length}}$`).test(value)

/** Registration and reset: 6-16 characters, letters and digits only, at least one of each. */
export const isPassword = (value: string): boolean => /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{6,16}$/.test(value)

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const ID_CHECK = '10X98765432'

/** ID card: 18 characters with the GB 11643 checksum (last may be X), or 15 digits (legacy). */
export const isIdCard = (value: string): boolean => {
  if (/^\d{15}$/.test(value)) return true
  if (!/^\d{17}[\dXx]$/.test(value)) return false
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(value[i]), 0)
  return ID_CHECK[sum % 11] === value[17].toUpperCase()
}

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

/** Ours (the spec has no device-name rule): a cloud phone's name, chosen at purchase, shown to transfer recipients and
 * grantees too. */
export const DEVICE_NAME_MAX = 20
export const DEVICE_NAME_RULE = `云手机名称为1-${DEVICE_NAME_MAX}个字符，不能包含英文逗号或控制字符`

/** Control characters (C0, DEL, C1), line and paragraph separators and bidirectional embeddings, overrides and
 * isolates: what makes a name read other than it is stored (`evil\u202Egpj.apk` shows as `evilkpa.jpg`). */
// eslint-disable-next-line no-control-regex
const MISREADING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/** A name others are shown (a device's, a phone file's) reads as it is stored: none of MISREADING. */
export const readsAsStored = (name: string): boolean => !MISREADING.test(name)

/** A device name: 1 to DEVICE_NAME_MAX characters after trimming, reading as stored (readsAsStored) and no ASCII comma
 * (orders carry names as csv). */
export const isDeviceName = (name: string): boolean => {
  const n = [...name.trim()].length
  return n >= 1 && n <= DEVICE_NAME_MAX && readsAsStored(name) && !name.includes(',')
}

/** Activation codes are typed loosely: spaces dropped, letters upper-cased. */
export const normaliseCode = (code: string): string => code.replace(/\s+/g, '').toUpperCase()
export const isActivationCode = (code: string): boolean => new RegExp(`^[0-9A-Z]{${ACTIVATION_CODE_LENGTH}}$`).test(code)

export const isSecurityCode = (code: string): boolean => new RegExp(`^\\d{${SECURITY_CODE_LENGTH}}$`).test(code)
