// Phone authorisation: the owner lets another registered user (by phone) use a device; one user per device. The
// owner cancels it: the grantee gets removeAuth {userCardId, diskName} and is cut off from the stream.
import type { PhoneAuthRecord } from '../../worker/protocol/devices.ts'
import type { AuthUser } from '../context.ts'
import { lockCards } from '../db/row-locks.ts'
import { accessDevice, requireNotExpired, requireOwner } from './access.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import { pushRefresh, pushTo, type DeviceServices } from './services.ts'
import type { DevicesDb } from './tables.ts'
import { recipientByPhone } from './transfer.ts'

const recordQuery = (s: DeviceServices) =>
  s.db.selectFrom('device_auth_records as r')
    .innerJoin('devices as d', 'd.id', 'r.device_id')
    .innerJoin('users as owner', 'owner.id', 'r.owner_id')
    .innerJoin('users as grantee', 'grantee.id', 'r.grantee_id')
    .select([
      'r.id', 'r.device_id', 'r.owner_id', 'r.grantee_id', 'r.status', 'r.created_at', 'r.cancelled_at',
      'd.user_card_id', 'd.disk_name', 'owner.phone as owner_phone', 'grantee.phone as grantee_phone',
    ])

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordQuery>['executeTakeFirstOrThrow']>>

const toRecord = (r: RecordRow, viewerId: number): PhoneAuthRecord => ({
  id: r.id,
  userCardId: r.user_card_id,
  diskName: r.disk_name,
  authType: r.owner_id === viewerId ? 0 : 1,
  ownerPhone: r.owner_phone,
  authPhone: r.grantee_phone,
  status: r.status === 1 ? 1 : 0,
  ctime: new Date(r.created_at).toISOString(),
  cancelTime: r.cancelled_at ? new Date(r.cancelled_at).toISOString() : null,
})

export const authorise = async (s: DeviceServices, user: AuthUser, userCardId: number, phone: string): Promise<PhoneAuthRecord> => {
  const allowed = async (db: DevicesDb) => {
    const access = await accessDevice(db, user.id, userCardId)
    requireOwner(access, DeviceMsg.granteeCannotAuthorise)
    requireNotExpired(access.device, s.clock)
    return access
  }
  await allowed(s.db)
  const to = await recipientByPhone(s, user, phone)
  // checked again with the device locked, so two authorisations (or a transfer) of one device take turns
  const id = await s.db.transaction().execute(async (trx) => {
    await lockCards(trx, [userCardId])
    const access = await allowed(trx)
    const existing = await trx.selectFrom('device_auths').select('id').where('device_id', '=', access.device.id).executeTakeFirst()
    if (existing) throw deviceError(DeviceStatus.conflict, DeviceMsg.alreadyAuthorised)
    await trx.insertInto('device_auths').values({ device_id: access.device.id, owner_id: user.id, grantee_id: to.id }).execute()
    const row = await trx.insertInto('device_auth_records')
      .values({ device_id: access.device.id, owner_id: user.id, grantee_id: to.id, created_at: new Date(s.clock.now()) })
      .returning('id').executeTakeFirstOrThrow()
    return row.id
  })
  await pushRefresh(s, [user.id, to.id])
  return toRecord(await recordQuery(s).where('r.id', '=', id).executeTakeFirstOrThrow(), user.id)
}

/** Records the caller is a party to: authType 0 those they granted, 1 those granted to them; in force first. */
export const authRecords = async (s: DeviceServices, user: AuthUser, authType: 0 | 1): Promise<PhoneAuthRecord[]> => {
  const rows = await recordQuery(s)
    .where(authType === 0 ? 'r.owner_id' : 'r.grantee_id', '=', user.id)
    .orderBy('r.status', 'asc').orderBy('r.created_at', 'desc').orderBy('r.id', 'desc')
    .limit(200).execute()
  return rows.map((r) => toRecord(r, user.id))
}

const partyRecord = async (s: DeviceServices, user: AuthUser, id: number): Promise<RecordRow> => {
  const row = await recordQuery(s).where('r.id', '=', id).executeTakeFirst()
  if (!row || (row.owner_id !== user.id && row.grantee_id !== user.id)) throw deviceError(DeviceStatus.notFound, DeviceMsg.authRecordNotFound)
  return row
}

export const authDetails = async (s: DeviceServices, user: AuthUser, id: number): Promise<PhoneAuthRecord> =>
  toRecord(await partyRecord(s, user, id), user.id)

export const cancelAuth = async (s: DeviceServices, user: AuthUser, id: number): Promise<PhoneAuthRecord> => {
  const row = await partyRecord(s, user, id)
  if (row.owner_id !== user.id) throw deviceError(DeviceStatus.forbidden, DeviceMsg.onlyOwnerCancels)
  if (row.status === 1) throw deviceError(DeviceStatus.conflict, DeviceMsg.alreadyCancelled)
  await s.db.transaction().execute(async (trx) => {
    // two cancels at once: only the one that ends the record goes on (and tells the grantee)
    const ended = await trx.updateTable('device_auth_records').set({ status: 1, cancelled_at: new Date(s.clock.now()) })
      .where('id', '=', id).where('status', '=', 0).returning('id').executeTakeFirst()
    if (!ended) throw deviceError(DeviceStatus.conflict, DeviceMsg.alreadyCancelled)
    await trx.deleteFrom('device_auths').where('device_id', '=', row.device_id).where('grantee_id', '=', row.grantee_id).execute()
    await trx.deleteFrom('device_sessions').where('device_id', '=', row.device_id).where('user_id', '=', row.grantee_id).execute()
  })
  s.sim.kick(row.device_id, 'accessRemoved', row.grantee_id)
  await pushTo(s, [row.grantee_id], 'removeAuth', { userCardId: row.user_card_id, diskName: row.disk_name })
  await pushRefresh(s, [user.id, row.grantee_id])
  return authDetails(s, user, id)
}
