// Pure rules of the account module: masking, the name, nickname, code and security-code formats, coupon status,
// page bounds. The ID card checksum is the tab's GB 11643 validator, so both sides accept the same numbers.
import { ACTIVATION_CODE_LENGTH, CouponStatus, NICKNAME_MAX, SECURITY_CODE_LENGTH } from '../../worker/protocol/account.ts'
import { isIdCard } from '../../src/lib/validators.ts'

export { isIdCard }

/** Keeps the first character: 张三 -> 张*, 欧阳娜娜 -> 欧***. */
export const maskName = (name: string): string => {
  const chars = [...name]
  return chars.length <= 1 ? name : chars[0] + '*'.repeat(chars.length - 1)
}

/** Keeps the first 3 and last 4 characters: 110101********1234 style. */
export const maskIdCard = (id: string): string => (id.length <= 7 ? id : id.slice(0, 3) + '*'.repeat(id.length - 7) + id.slice(-4))

/** A Chinese legal name: 2 to 20 Chinese characters, the middle dot allowed between parts (少数民族姓名). */
export const isRealName = (name: string): boolean => /^[\u4e00-\u9fa5]+(·[\u4e00-\u9fa5]+)*$/.test(name) && [...name].length >= 2 && [...name].length <= 20

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

export interface CouponState {
  readonly used_at: Date | null
  readonly locked_order: string | null
  readonly end_time: Date
}

/** Used wins, then held by an unpaid order, then expired; everything else is effective. */
export const couponStatusOf = (c: CouponState, now: number): CouponStatus =>
  c.used_at !== null ? CouponStatus.used
    : c.locked_order !== null ? CouponStatus.inUse
    : new Date(c.end_time).getTime() < now ? CouponStatus.invalid
    : CouponStatus.effective

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 50

export const pageOf = (p: { pageNum?: number | undefined; pageSize?: number | undefined }) => {
  const pageNum = Math.max(1, Math.floor(p.pageNum ?? 1) || 1)
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(p.pageSize ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE))
  return { limit: pageSize, offset: (pageNum - 1) * pageSize }
}
