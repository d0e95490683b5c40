// Analytics endpoints: page records, user visits and active records are stored (the user when a valid token comes
// with them, for visitors none) and counted for operators (`npm run ops -- stats`). Public, so a visitor's report
// can never end a session; bad input is refused with a Chinese message. Every write counts the rows it stores against
// the client's address and, with a valid token, its account (issue 22 finding 5): over the limit it is refused.
import type { Context } from 'hono'
import { sql, type ColumnType, type Generated, type Kysely } from 'kysely'
import { POINT_NAME } from '../../worker/protocol/analytics.ts'
import { RECORDS_PER_REPORT } from '../../worker/protocol/constants.ts'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { clientAddress } from '../http/client-address.ts'
import { DomainError, Status } from '../http/errors.ts'
import { createRateLimit, rateKey } from '../security/throttle.ts'

interface AnalyticsEventsTable {
  id: Generated<number>
  kind: string
  point_name: string | null
  page_path: string | null
  user_id: number | null
  client_time: Date | null
  created_at: ColumnType<Date, never, never>
}
type AnalyticsDb = Kysely<Database & { analytics_events: AnalyticsEventsTable }>
const analyticsDb = (db: Kysely<Database>): AnalyticsDb => db.withTables<{ analytics_events: AnalyticsEventsTable }>()

const PAGE_PATH_MAX = 200
const invalid = (msg: string) => new DomainError(Status.invalidPayload, msg)

export interface AnalyticsCounts {
  readonly statPoints: ReadonlyArray<{ name: string; count: number }>
  readonly pageRecords: ReadonlyArray<{ name: string; count: number }>
  readonly userVisits: number
  readonly activeRecords: number
}

export const countAnalytics = async (core: Kysely<Database>): Promise<AnalyticsCounts> => {
  const db = analyticsDb(core)
  const stat = await db.selectFrom('stat_points').select(['point_name', sql<number>`count(*)::int`.as('n')])
    .groupBy('point_name').orderBy('point_name').execute()
  const events = await db.selectFrom('analytics_events').select(['kind', 'point_name', sql<number>`count(*)::int`.as('n')])
    .groupBy(['kind', 'point_name']).orderBy('kind').orderBy('point_name').execute()
  const total = (kind: string) => events.filter((e) => e.kind === kind).reduce((n, e) => n + Number(e.n), 0)
  return {
    statPoints: stat.map((s) => ({ name: s.point_name, count: Number(s.n) })),
    pageRecords: events.filter((e) => e.kind === 'record').map((e) => ({ name: e.point_name ?? '', count: Number(e.n) })),
    userVisits: total('visit'),
    activeRecords: total('active'),
  }
}

/** Counts `rows` analytics rows against the caller's address and account; throws once either is over its limit. */
export type AnalyticsAllowance = (c: Context, user: { readonly id: number } | null, rows: number) => Promise<void>

export const analyticsAllowance = (core: Kysely<Database>): AnalyticsAllowance => {
  const limit = createRateLimit(core)
  return (c, user, rows) =>
    limit.take([rateKey('analyticsAddress', clientAddress(c)), ...(user ? [rateKey('analyticsUser', user.id)] : [])], rows)
}

export const registerAnalyticsRoutes = (ctx: ServerContext): void => {
  const { app, publicRoute } = ctx
  const db = analyticsDb(ctx.db)
  const allow = analyticsAllowance(ctx.db)

  publicRoute(app, catalogue.reportRecords, async ({ payload, user, c }) => {
    const { records } = payload
    if (records.length === 0) return null
    if (records.length > RECORDS_PER_REPORT) throw invalid(`每次最多上报${RECORDS_PER_REPORT}条记录`)
    if (records.some((r) => !POINT_NAME.test(r.pointName) || r.pagePath.length > PAGE_PATH_MAX || !Number.isFinite(r.time))) {
      throw invalid('上报记录格式不正确')
    }
    await allow(c, user, records.length)
    await db.insertInto('analytics_events').values(records.map((r) => ({
      kind: 'record', point_name: r.pointName, page_path: r.pagePath, user_id: user?.id ?? null, client_time: new Date(r.time),
    }))).execute()
    return null
  })

  publicRoute(app, catalogue.addUserVisit, async ({ user, c }) => {
    await allow(c, user, 1)
    await db.insertInto('analytics_events').values({ kind: 'visit', user_id: user?.id ?? null }).execute()
    return null
  })

  publicRoute(app, catalogue.addActiveRecord, async ({ user, c }) => {
    await allow(c, user, 1)
    await db.insertInto('analytics_events').values({ kind: 'active', user_id: user?.id ?? null }).execute()
    return null
  })
}
