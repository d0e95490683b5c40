// The statistic points the tab reports (systemBuriedPoint/stat pointName) and the page-record batching rule, in one
// place. Point names follow POINT_NAME (worker/protocol/analytics.ts).
import type { PageRecord } from '../../../worker/protocol/analytics.ts'
import { RECORDS_PER_REPORT } from '../../../worker/protocol/constants.ts'
import { PATHS } from '../../router/paths.ts'

export const Points = {
  adClick: 'ad_click',
  purchaseOrder: 'purchase_order',
  pay: (method: string) => `pay_${method}`,
  shareInvite: 'share_invite',
  pageView: 'page_view',
} as const

/** The screens where someone signs in: a session that begins while a tab shows one was begun by that tab. */
export const AUTH_SCREENS: ReadonlySet<string> = new Set([
  PATHS.login, PATHS.quickLogin, PATHS.verificationCode, PATHS.registerAccount,
])

/** Page records are sent when this many are waiting, or after REPORT_AFTER_MS, or when the tab hides. */
export const REPORT_AFTER_MS = 30_000

/** A queue of page records: `add` returns the batch to send when the queue is full, `drain` takes what is waiting. */
export const recordQueue = (limit = RECORDS_PER_REPORT) => {
  let waiting: PageRecord[] = []
  return {
    add(record: PageRecord): PageRecord[] | null {
      waiting.push(record)
      if (waiting.length < limit) return null
      const batch = waiting
      waiting = []
      return batch
    },
    drain(): PageRecord[] {
      const batch = waiting
      waiting = []
      return batch
    },
    get size() {
      return waiting.length
    },
  }
}
