// Who may do what with a device: its owner, or a user it is authorised to; expiry and busy (restarting) checks.
import type { Selectable } from 'kysely'
import type { DevicesTable } from '../db/schema.ts'
import type { DeviceClock } from './clock.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import type { DevicesDb } from './tables.ts'

export type DeviceRow = Selectable<DevicesTable>
export type Role = 'owner' | 'grantee'

export interface DeviceAccess {
  readonly device: DeviceRow
  readonly role: Role
}

/** The one answer for a device the caller may not see: missing and someone else's look the same (as in bulk.ts). */
export const deviceNotFoundOrNotYours = () => deviceError(DeviceStatus.notFound, DeviceMsg.notFoundOrNotYours)

/** The caller's role on the device; a device that does not exist and someone else's get the same refusal. */
export const accessDevice = async (db: DevicesDb, userId: number, userCardId: number): Promise<DeviceAccess> => {
  const device = await db.selectFrom('devices').selectAll().where('user_card_id', '=', userCardId).executeTakeFirst()
  if (!device) throw deviceNotFoundOrNotYours()
  if (device.owner_id === userId) return { device, role: 'owner' }
  const grant = await db
    .selectFrom('device_auths').select('id')
    .where('device_id', '=', device.id).where('grantee_id', '=', userId)
    .executeTakeFirst()
  if (grant) return { device, role: 'grantee' }
  throw deviceNotFoundOrNotYours()
}

export const requireOwner = (access: DeviceAccess, refusal: string): void => {
  if (access.role !== 'owner') throw deviceError(DeviceStatus.forbidden, refusal)
}

export const requireNotExpired = (device: DeviceRow, clock: DeviceClock): void => {
  if (new Date(device.expires_at).getTime() <= clock.now()) throw deviceError(DeviceStatus.expired, DeviceMsg.expired)
}

export const ownerAndGrantees = async (db: DevicesDb, deviceId: number): Promise<ReadonlyArray<{ id: number; username: string }>> => {
  const owner = await db
    .selectFrom('devices').innerJoin('users', 'users.id', 'devices.owner_id')
    .select(['users.id', 'users.username']).where('devices.id', '=', deviceId)
    .execute()
  const grantees = await db
    .selectFrom('device_auths').innerJoin('users', 'users.id', 'device_auths.grantee_id')
    .select(['users.id', 'users.username']).where('device_auths.device_id', '=', deviceId)
    .execute()
  return [...owner, ...grantees]
}

/** The disk names of those of `userCardIds` the user may use (owned or authorised to it); another's and a missing one are absent alike. */
export const usableDeviceNames = async (db: DevicesDb, userId: number, userCardIds: ReadonlyArray<number>): Promise<ReadonlyMap<number, string>> =>
  new Map(
    (await db.selectFrom('devices').select(['user_card_id', 'disk_name']).where('user_card_id', 'in', [...userCardIds])
      .where((eb) => eb.or([
        eb('owner_id', '=', userId),
        eb.exists(eb.selectFrom('device_auths').select('device_auths.id')
          .whereRef('device_auths.device_id', '=', 'devices.id').where('device_auths.grantee_id', '=', userId)),
      ]))
      .execute())
      .map((r) => [r.user_card_id, r.disk_name] as const),
  )
