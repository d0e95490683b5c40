// The generic validators of product-spec §5 and the masked phone display.
import { CODE_LENGTH } from '../../worker/protocol/constants.ts'

/** Mainland mobile number: starts with 1, 11 digits. */
export const isMobile = (value: string): boolean => /^1\d{10}$/.test(value)

export const isEmail = (value: string): boolean =>
  /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(value)

export const isUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const ID_CHECK = '10X98765432'

/** ID card: 18 characters with the GB 11643 checksum (last may be X), or 15 digits (legacy). */
export const isIdCard = (value: string): boolean => {
  if (/^\d{15}$/.test(value)) return true
  if (!/^\d{17}[\dXx]$/.test(value)) return false
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(value[i]), 0)
  return ID_CHECK[sum % 11] === value[17].toUpperCase()
}

/** Digits-only verification code of the given length (default 6). */
export const isCode = (value: string, length: number = CODE_LENGTH): boolean =>
  new RegExp(`^\\d{${length}}$`).test(value)

/** Amount with up to two decimals. */
export const isAmount = (value: string): boolean => /^(0|[1-9]\d*)(\.\d{1,2})?$/.test(value)

/** First 3 digits, `****`, last 4 (138****8000); shorter values are returned unchanged. */
export const maskPhone = (phone: string): string =>
  phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone
