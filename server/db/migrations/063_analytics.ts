// Analytics the client reports: page records (reportRecords), user visits (addUserVisit), active records
// (addActiveRecord). Statistic points keep their own table (stat_points, 001).
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('analytics_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    /** 'record' | 'visit' | 'active'. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('point_name', 'text')
    .addColumn('page_path', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('client_time', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('analytics_events_kind').on('analytics_events').columns(['kind', 'point_name']).execute()
}
