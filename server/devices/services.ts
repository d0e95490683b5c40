// What every device handler works with: the database with the device tables, the clock, the push hub and the
// phone stream; plus the pushes the operations send.
import type { PushHub } from '../context.ts'
import type { PhoneFileBytes } from '../files/phone-file-bytes.ts'
import type { DeviceClock } from './clock.ts'
import type { StreamServer } from './sim/stream-server.ts'
import type { DevicesDb } from './tables.ts'

export interface DeviceServices {
  readonly db: DevicesDb
  readonly clock: DeviceClock
  readonly hub: PushHub
  readonly sim: StreamServer
  /** where phone files' bytes live (a factory reset and a transfer remove them, a group copy copies them). */
  readonly files: PhoneFileBytes
}

const usernameOf = async (db: DevicesDb, userId: number): Promise<string | null> =>
  (await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst())?.username ?? null

/** refreshCloudPhoneList to each user whose list changed. */
export const pushRefresh = async (s: DeviceServices, userIds: ReadonlyArray<number>): Promise<void> => {
  for (const id of new Set(userIds)) {
    const username = await usernameOf(s.db, id)
    if (username) await s.hub.send(username, { type: 'refreshCloudPhoneList', data: null })
  }
}

export const pushTo = async (
  s: DeviceServices,
  userIds: ReadonlyArray<number>,
  type: 'changeCard' | 'removeAuth',
  data: { userCardId: number; diskName: string },
): Promise<void> => {
  for (const id of new Set(userIds)) {
    const username = await usernameOf(s.db, id)
    if (username) await s.hub.send(username, { type, data })
  }
}
