// Device transfer: the owner hands devices to another registered user by phone number, all or nothing. Both users'
// records get the transfer and both lists are refreshed by push.
import { MAX_DEVICES_PER_ACCOUNT } from '../../worker/protocol/constants.ts'
import type { TransferRecord } from '../../worker/protocol/devices.ts'
import { pageOf } from '../../worker/protocol/paging.ts'
import { isMobile } from '../../worker/protocol/validators.ts'
import type { AuthUser } from '../context.ts'
import { lockCards, lockDeviceOwner } from '../db/row-locks.ts'
import { accessDevice, deviceNotFoundOrNotYours, requireNotExpired, requireOwner, type DeviceRow } from './access.ts'
import { requireNotBusy } from './busy.ts'
import { wipePhoneFiles } from '../files/phone-file-wipe.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import { pushRefresh, type DeviceServices } from './services.ts'

/** The registered user a phone number names, refusing malformed numbers, unknown numbers and oneself. */
export const recipientByPhone = async (s: DeviceServices, user: AuthUser, phone: string): Promise<{ id: number; username: string; phone: string }> => {
  if (!isMobile(phone)) throw deviceError(DeviceStatus.invalidPhone, DeviceMsg.invalidPhone)
  const to = await s.db.selectFrom('users').select(['id', 'username', 'phone']).where('phone', '=', phone).executeTakeFirst()
  if (!to) throw deviceError(DeviceStatus.notFound, DeviceMsg.phoneNotRegistered)
  if (to.id === user.id) throw deviceError(DeviceStatus.conflict, DeviceMsg.notToSelf)
  return to
}

export const transferDevices = async (
  s: DeviceServices, user: AuthUser, userCardIds: ReadonlyArray<number>, phone: string,
): Promise<{ count: number; phone: string }> => {
  const ids = [...new Set(userCardIds)]
  if (ids.length === 0) throw deviceError(DeviceStatus.invalidPhone, DeviceMsg.noDevicesChosen)
  const to = await recipientByPhone(s, user, phone)
  // every check runs with the devices and then the recipient's device count locked (devices before users, as
  // everywhere): transfers, authorisations and replacements of these devices, and anything adding devices to the
  // recipient, wait for this one to end
  const wiped: number[] = []
  const devices = await s.db.transaction().execute(async (trx) => {
    await lockCards(trx, ids)
    const devices: DeviceRow[] = []
    for (const id of ids) {
      const access = await accessDevice(trx, user.id, id)
      requireOwner(access, DeviceMsg.granteeCannotTransfer)
      requireNotExpired(access.device, s.clock)
      await requireNotBusy(trx, access.device.id, s.clock)
      const grant = await trx.selectFrom('device_auths').select('id').where('device_id', '=', access.device.id).executeTakeFirst()
      if (grant) throw deviceError(DeviceStatus.conflict, DeviceMsg.authorisedOut(access.device.disk_name))
      devices.push(access.device)
    }
    await lockDeviceOwner(trx, to.id)
    const { count } = await trx.selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('count'))
      .where('owner_id', '=', to.id).executeTakeFirstOrThrow()
    if (Number(count) + devices.length > MAX_DEVICES_PER_ACCOUNT) throw deviceError(DeviceStatus.limit, DeviceMsg.tooManyDevices)
    for (const d of devices) {
      const moved = await trx.updateTable('devices').set({ owner_id: to.id }).where('id', '=', d.id).where('owner_id', '=', user.id)
        .returning('id').executeTakeFirst()
      // a record only for a device that moved (PGlite reports no affected-row count: returning() tells)
      if (!moved) throw deviceNotFoundOrNotYours()
      await trx.deleteFrom('device_sessions').where('device_id', '=', d.id).execute()
      // the new owner gets the phone without the old owner's files
      wiped.push(...(await wipePhoneFiles(trx, d.id)))
      await trx.insertInto('device_transfers').values({
        device_id: d.id, user_card_id: d.user_card_id, disk_name: d.disk_name, from_user_id: user.id, to_user_id: to.id,
        created_at: new Date(s.clock.now()),
      }).execute()
    }
    return devices
  })
  await s.files.remove(wiped)
  for (const d of devices) s.sim.kick(d.id, 'accessRemoved', user.id)
  await pushRefresh(s, [user.id, to.id])
  return { count: devices.length, phone: to.phone }
}

export const transferRecords = async (
  s: DeviceServices, user: AuthUser, pageNum: number | undefined, pageSize: number | undefined,
): Promise<{ list: TransferRecord[]; total: number }> => {
  const { limit, offset } = pageOf({ pageNum, pageSize })
  const mine = s.db.selectFrom('device_transfers')
    .where((eb) => eb.or([eb('from_user_id', '=', user.id), eb('to_user_id', '=', user.id)]))
  const { total } = await mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await mine
    .innerJoin('users as from_user', 'from_user.id', 'device_transfers.from_user_id')
    .innerJoin('users as to_user', 'to_user.id', 'device_transfers.to_user_id')
    .select([
      'device_transfers.id', 'device_transfers.user_card_id', 'device_transfers.disk_name', 'device_transfers.from_user_id',
      'device_transfers.created_at', 'from_user.phone as from_phone', 'to_user.phone as to_phone',
    ])
    .orderBy('device_transfers.created_at', 'desc').orderBy('device_transfers.id', 'desc')
    .limit(limit).offset(offset)
    .execute()
  return {
    total: Number(total),
    list: rows.map((r) => {
      const out = r.from_user_id === user.id
      return {
        id: r.id, userCardId: r.user_card_id, diskName: r.disk_name, direction: out ? 'out' : 'in',
        counterpartPhone: out ? r.to_phone : r.from_phone, ctime: new Date(r.created_at).toISOString(),
      }
    }),
  }
}
