// Analytics (§7 "Public/analytics", "Auth/user"): page records, user visits and active records. Never blocking and
// silent on failure (§7 says so of the statistics point; the same holds here). Shapes are ours.
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { IntIn, ListOf, LongText, NameText } from './limits.ts'

/** A statistic point name: letters, digits and _ . : - (the stat endpoint's pointName follows the same rule). */
export const POINT_NAME = /^[A-Za-z0-9_.:-]{1,64}$/
import { RECORDS_PER_REPORT } from './constants.ts'

export const PageRecord = Schema.Struct({
  pointName: NameText,
  /** the hash route the record was made on. */
  pagePath: LongText,
  /** ms since epoch, the tab's clock. */
  time: IntIn(0, 8_640_000_000_000_000),
})
export type PageRecord = typeof PageRecord.Type

export const analyticsEndpoints = {
  reportRecords: endpoint({
    name: 'reportRecords', method: 'POST', repeatable: false, idempotent: true, path: '/api/public/v5/buriedPointRecord/reportRecords',
    // the schema's cap is a loose abuse cap; the handler refuses more than RECORDS_PER_REPORT with its own message
    request: Schema.Struct({ records: ListOf(PageRecord, RECORDS_PER_REPORT * 4) }), response: Schema.Unknown, silentFailure: true,
  }),
  addUserVisit: endpoint({
    name: 'addUserVisit', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/operateApi/addUserVisit',
    request: NoPayload, response: Schema.Unknown, silentFailure: true,
  }),
  addActiveRecord: endpoint({
    name: 'addActiveRecord', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v1/client/login/addActiveRecord',
    request: NoPayload, response: Schema.Unknown, silentFailure: true,
  }),
} as const
