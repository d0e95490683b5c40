// Which server instance produces a simulated phone's screen (one screen per phone: the other instances relay it):
// a lease the owner refreshes while the phone has viewers; a stale lease, or one of an instance that is gone, is taken
// over by the next instance a viewer opens the phone at.
import { type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('device_stream_leases')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute()
}
