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

export const findDevice = async (db: DevicesDb, userCardId: number): Promise<DeviceRow> => {
  const device = await db.selectFrom('devices').selectAll().where('user_card_id', '=', userCardId).executeTakeFirst()
  if (!device) throw deviceError(DeviceStatus.notFound, DeviceMsg.notFound)
  return device
}

/** The caller's role on the device; someone else's device is refused with a clear message. */
export const accessDevice = async (db: DevicesDb, userId: number, userCardId: number): Promise<DeviceAccess> => {
  const device = await findDevice(db, userCardId)
  if (device.owner_id === userId) return { device, role: 'owner' }
  const grant = await db
    .selectFrom('device_auths').select('id')
    .where('device_id', '=', device.id).where('grantee_id', '=', userId)
    .executeTakeFirst()
  if (grant) return { device, role: 'grantee' }
  throw deviceError(DeviceStatus.forbidden, DeviceMsg.notYours)
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
