// Orders remember the devices they were made for as they were then (phone type, tier, expiry), so settlement can
// refuse an order whose devices changed in between (issue 11 finding 3). Older orders have an empty snapshot.
import type { Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.alterTable('orders').addColumn('targets_snapshot', 'text', (c) => c.notNull().defaultTo('')).execute()
}
