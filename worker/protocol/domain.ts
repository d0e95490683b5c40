// The backend's domain codes and the small rules on them, one home each, Schema-free: the worker, the screens and the
// reference server import them from here (issue 21), never write the numbers again.

// ---- orders (§3 Order: finishPay, buyType) ----

/** An order's state (finishPay). */
export const FinishPay = { unpaid: 0, paid: 1, paying: 2, failed: 3, expired: 4, cancelled: 5, refunded: 6 } as const
export type FinishPay = (typeof FinishPay)[keyof typeof FinishPay]
/** The states of an order still waiting for its money: not yet paid, or a payment started and not finished. */
export const UNPAID_STATES: ReadonlyArray<number> = [FinishPay.unpaid, FinishPay.paying]
export const isUnpaid = (finishPay: number): boolean => UNPAID_STATES.includes(finishPay)

/** What an order buys (buyType). */
export const BuyType = { recharge: 0, buy: 1, renew: 2, upgrade: 3 } as const
export type BuyType = (typeof BuyType)[keyof typeof BuyType]

// ---- devices (§3 Device: phoneAuthStatus, authPhone, validTime) ----

/** phoneAuthStatus: whether an authorisation exists on the device. */
export const PhoneAuthStatus = { none: 0, authorised: 1 } as const
/** authPhone, with phoneAuthStatus authorised: which way the authorisation goes. */
export const AuthDirection = { byMe: 0, toMe: 1 } as const

export const MINUTE_MS = 60_000
/** A rental's minutes left at `now` (validTime): whole minutes, <= 0 when it has run out. */
export const minutesLeft = (expiresAt: Date | number, now: number): number =>
  Math.floor(((typeof expiresAt === 'number' ? expiresAt : expiresAt.getTime()) - now) / MINUTE_MS)

// ---- URLs the server hands out ----

/** Only http(s) is ever opened, framed, fetched or shown: never `javascript:`, `data:` or another scheme. */
export const isHttpProtocol = (protocol: string): boolean => protocol === 'http:' || protocol === 'https:'

/** An absolute http(s) URL with a host. */
export const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return isHttpProtocol(url.protocol) && url.hostname !== ''
  } catch {
    return false
  }
}

/** A URL the server hands the tab to open or send to, resolved against `here` (paths on the app's origin), http(s) only. */
export const resolveHttpUrl = (url: string, here: string): string | null => {
  try {
    const resolved = new URL(url, here)
    return isHttpProtocol(resolved.protocol) ? resolved.href : null
  } catch {
    return null
  }
}
