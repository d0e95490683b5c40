// Idempotent demo data of the device operations: history records for authorisations that exist without one, and
// a few timer shutdown records per device that has none. Run after the core seed.
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { devicesDb } from './tables.ts'

const MINUTE = 60_000

/** [timerType, durationMinutes, hours before now the device went offline] */
const demoTimings: ReadonlyArray<[1 | 2 | 3, number, number]> = [
  [1, 3 * 24 * 60 + 2 * 60, 5],
  [2, 45, 30],
  [3, 2 * 60 + 30, 54],
]

export const seedDeviceDemoData = async (core: Kysely<Database>, now = Date.now()): Promise<void> => {
  const db = devicesDb(core)
  const grants = await db.selectFrom('device_auths').selectAll().execute()
  for (const g of grants) {
    const record = await db.selectFrom('device_auth_records').select('id')
      .where('device_id', '=', g.device_id).where('grantee_id', '=', g.grantee_id).where('status', '=', 0)
      .executeTakeFirst()
    if (!record) {
      await db.insertInto('device_auth_records')
        .values({ device_id: g.device_id, owner_id: g.owner_id, grantee_id: g.grantee_id, created_at: g.created_at })
        .execute()
    }
  }
  const devices = await db.selectFrom('devices').select('id')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('device_timing_records').select('id').whereRef('device_timing_records.device_id', '=', 'devices.id'))))
    .execute()
  for (const d of devices) {
    for (const [timerType, minutes, hoursAgo] of demoTimings) {
      const offline = now - hoursAgo * 60 * MINUTE
      await db.insertInto('device_timing_records').values({
        device_id: d.id, timer_type: timerType, duration_minutes: minutes,
        start_time: new Date(offline - minutes * MINUTE), offline_time: new Date(offline),
      }).execute()
    }
  }
}
