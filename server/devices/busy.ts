// A device's restarting ("busy") window after reboot, reset, repair, replacement or a model change; connect answers
// 5200 with the progress through the window while it lasts.
import type { DeviceClock } from './clock.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import type { DevicesDb } from './tables.ts'

export interface BusyState {
  readonly reason: string
  /** 0..100 through the window. */
  readonly progress: number
  readonly remainingMs: number
}

export const busyState = async (db: DevicesDb, deviceId: number, clock: DeviceClock): Promise<BusyState | null> => {
  const row = await db.selectFrom('device_runtime').selectAll().where('device_id', '=', deviceId).executeTakeFirst()
  if (!row?.busy_until || !row.busy_since) return null
  const now = clock.now()
  const until = new Date(row.busy_until).getTime()
  if (until <= now) return null
  const since = new Date(row.busy_since).getTime()
  const span = Math.max(1, until - since)
  const progress = Math.min(99, Math.max(0, Math.floor(((now - since) / span) * 100)))
  return { reason: row.busy_reason ?? '', progress, remainingMs: until - now }
}

export const requireNotBusy = async (db: DevicesDb, deviceId: number, clock: DeviceClock): Promise<void> => {
  if (await busyState(db, deviceId, clock)) throw deviceError(DeviceStatus.busy, DeviceMsg.busy)
}

export const markBusy = async (db: DevicesDb, deviceId: number, reason: string, durationMs: number, clock: DeviceClock): Promise<number> => {
  const since = new Date(clock.now())
  const until = new Date(clock.now() + durationMs)
  await db
    .insertInto('device_runtime')
    .values({ device_id: deviceId, busy_since: since, busy_until: until, busy_reason: reason })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ busy_since: since, busy_until: until, busy_reason: reason }))
    .execute()
  return Math.ceil(durationMs / 1000)
}

export const recordConnect = async (db: DevicesDb, deviceId: number, clock: DeviceClock): Promise<void> => {
  const at = new Date(clock.now())
  await db
    .insertInto('device_runtime')
    .values({ device_id: deviceId, connect_count: 1, last_connect_at: at })
    .onConflict((oc) => oc.column('device_id').doUpdateSet((eb) => ({
      connect_count: eb('device_runtime.connect_count', '+', 1),
      last_connect_at: at,
    })))
    .execute()
}
