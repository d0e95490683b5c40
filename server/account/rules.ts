// Pure rules of the account module: masking, coupon status. The input formats (ID card checksum
// GB 11643, names, codes) are the contract's (worker/protocol/validators.ts), so tab and server accept the same input.
import { CouponStatus } from '../../worker/protocol/account.ts'

/** Keeps the first character: 张三 -> 张*, 欧阳娜娜 -> 欧***. */
export const maskName = (name: string): string => {
  const chars = [...name]
  return chars.length <= 1 ? name : chars[0] + '*'.repeat(chars.length - 1)
}

/** Keeps the first 3 and last 4 characters: 110101********1234 style. */
export const maskIdCard = (id: string): string => (id.length <= 7 ? id : id.slice(0, 3) + '*'.repeat(id.length - 7) + id.slice(-4))

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
