// Pure rules of the order screens: countdown text, the payment switch for this OS, pay status and order texts.
import type { Device } from '../../../worker/protocol/devices.ts'
import type { PaySwitch } from '../../../worker/protocol/pay.ts'
import { payZhCN as t } from '../../i18n/zh-CN.pay.ts'
import { buyRefusal, osNameOf } from '../../../worker/protocol/pay-switch.ts'
import { PhoneAuthStatus } from '../../../worker/protocol/domain.ts'

/** How often the pay-order and status pages ask for the pay status. */
export const PAY_STATUS_POLL_MS = 2_000

const pad = (n: number) => String(n).padStart(2, '0')

/** ms left -> "mm:ss" (or "h:mm:ss"); 0 at or past the end. */
export const countdownText = (msLeft: number): string => {
  const s = Math.max(0, Math.floor(msLeft / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`
}

/** null when paying is allowed on this OS (the server's osName; the user agent only when it sends none); otherwise
 * the text saying why not (payTips or the decisions.md default). */
export const payBlockedText = (sw: PaySwitch | null, userAgent: string): string | null => {
  if (!sw) return null
  return buyRefusal(sw, sw.osName || osNameOf(userAgent))
}

/** Renewable by me: mine (no authorisation either way). */
export const isRenewable = (d: Pick<Device, 'phoneAuthStatus'>): boolean => d.phoneAuthStatus !== PhoneAuthStatus.authorised

export const payTypeText = (payType: number | null): string => (payType === null ? '' : (t.payType[payType] ?? ''))
export const finishPayText = (finishPay: number): string => t.finishPay[finishPay] ?? ''

const two = (n: number) => String(n).padStart(2, '0')
export const dateTimeText = (ms: number): string => {
  const d = new Date(ms)
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`
}
