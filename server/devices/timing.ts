// Shutdown (timer) records of the caller's own devices, newest first, optionally for one device.
import type { TimerType, TimingRecord } from '../../worker/protocol/devices.ts'
import { pageOf } from '../../worker/protocol/paging.ts'
import type { AuthUser } from '../context.ts'
import type { DeviceServices } from './services.ts'

export const timingRecords = async (
  s: DeviceServices, user: AuthUser, pageNum: number | undefined, pageSize: number | undefined, userCardId?: number,
): Promise<{ list: TimingRecord[]; total: number }> => {
  const { limit, offset } = pageOf({ pageNum, pageSize })
  let mine = s.db.selectFrom('device_timing_records as t').innerJoin('devices as d', 'd.id', 't.device_id')
    .where('d.owner_id', '=', user.id)
  if (userCardId !== undefined) mine = mine.where('d.user_card_id', '=', userCardId)
  const { total } = await mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await mine
    .select(['t.id', 't.timer_type', 't.duration_minutes', 't.start_time', 't.offline_time', 'd.user_card_id', 'd.disk_name'])
    .orderBy('t.offline_time', 'desc').orderBy('t.id', 'desc')
    .limit(limit).offset(offset)
    .execute()
  return {
    total: Number(total),
    list: rows.map((r) => ({
      id: r.id, userCardId: r.user_card_id, diskName: r.disk_name, timerType: r.timer_type as TimerType,
      durationMinutes: r.duration_minutes, startTime: new Date(r.start_time).toISOString(),
      offlineTime: new Date(r.offline_time).toISOString(),
    })),
  }
}
