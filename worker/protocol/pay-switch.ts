// The payment switch (§3): which OS a request comes from, named like uni-app's osName. The server derives osName from
// the request's User-Agent and returns it with the switch; the screens use the server's osName and read the user
// agent themselves only when a server sends none.
import { BuyType } from './domain.ts'
export type OsName = 'ios' | 'android' | 'harmonyos' | 'windows' | 'macos' | 'linux' | 'other'

export const osNameOf = (userAgent: string): OsName => {
  if (/OpenHarmony|HarmonyOS/i.test(userAgent)) return 'harmonyos'
  if (/Android/i.test(userAgent)) return 'android'
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  // iPadOS 13+ asks for desktop pages as "Macintosh"; a touch point tells them apart only in the page, not here
  if (/Macintosh|Mac OS X/i.test(userAgent)) return 'macos'
  if (/Windows/i.test(userAgent)) return 'windows'
  if (/Linux|X11|CrOS/i.test(userAgent)) return 'linux'
  return 'other'
}

/** iosBuySwitch governs iOS; androidBuySwitch every other system (the app is sold outside Apple's store there). */
export const buySwitchOn = (sw: { iosBuySwitch: boolean; androidBuySwitch: boolean }, osName: string): boolean =>
  osName === 'ios' ? sw.iosBuySwitch : sw.androidBuySwitch

/** decisions.md: what the screens show, and the server answers, while this OS's buy switch is off and payTips is empty. */
export const PAY_TIPS_DEFAULT = '因相关政策调整，该功能暂不可用'
/** Ours (the spec gives no text): the batch screens' notice and the server's refusal while the batch switch is off. */
export const BATCH_CLOSED_TEXT = '批量购买与批量续费暂未开放'

/** The text refusing a purchase on this OS, or null when its buy switch is on (the tab and the server alike). */
export const buyRefusal = (sw: { iosBuySwitch: boolean; androidBuySwitch: boolean; payTips: string }, osName: string): string | null =>
  buySwitchOn(sw, osName) ? null : sw.payTips.trim() || PAY_TIPS_DEFAULT

/** An order for more than one device at once (a batch purchase or a batch renewal): the batch switch governs it, as
 * coupons without batchBuy do (api-notes). Renewals count their distinct devices, purchases their quantity. */
export const isBatchOrder = (order: { buyType: number; quantity: number; userCardIdStr?: string | undefined }): boolean =>
  order.buyType === BuyType.renew
    ? new Set((order.userCardIdStr ?? '').split(',').map((s) => s.trim()).filter((s) => /^\d+$/.test(s))).size > 1
    : order.quantity > 1
