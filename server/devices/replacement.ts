// One-tap new device: the owner's card moves to a new instance (new userCardId, same remaining time, factory model
// parameters); once per device per 24 h. Users of the old card get changeCard and a list refresh.
import type { ReplacementRecord, ReplacementResult } from '../../worker/protocol/devices.ts'
import type { AuthUser } from '../context.ts'
import { lockCards, nextUserCardIds } from '../db/row-locks.ts'
import { DomainError } from '../http/errors.ts'
import { accessDevice, ownerAndGrantees, requireNotExpired, requireOwner, type DeviceRow } from './access.ts'
import { markBusy, requireNotBusy } from './busy.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import { pushRefresh, pushTo, type DeviceServices } from './services.ts'
import type { DevicesDb } from './tables.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** The device the caller may replace now; run with the device locked, so two replacements cannot both pass. */
const replaceable = async (db: DevicesDb, s: DeviceServices, user: AuthUser, userCardId: number): Promise<DeviceRow> => {
  const access = await accessDevice(db, user.id, userCardId)
  requireOwner(access, DeviceMsg.granteeCannotReplace)
  const { device } = access
  requireNotExpired(device, s.clock)
  await requireNotBusy(db, device.id, s.clock)
  const recent = await db.selectFrom('device_replacements').select('id')
    .where('device_id', '=', device.id).where('created_at', '>', new Date(s.clock.now() - DAY_MS))
    .executeTakeFirst()
  if (recent) throw deviceError(DeviceStatus.limit, DeviceMsg.replacedRecently)
  return device
}

export const replaceDevice = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<ReplacementResult> => {
  const device = await replaceable(s.db, s, user, userCardId)
  const users = await ownerAndGrantees(s.db, device.id)
  const newUserCardId = await s.db.transaction().execute(async (trx) => {
    await lockCards(trx, [userCardId])
    // a replacement that won the lock meanwhile changed the userCardId: this one then finds no device by it
    await replaceable(trx, s, user, userCardId).catch((error: unknown) => {
      throw error instanceof DomainError && error.status === DeviceStatus.notFound ? deviceError(DeviceStatus.limit, DeviceMsg.replacedRecently) : error
    })
    const [next] = await nextUserCardIds(trx, 1)
    if (next === undefined) throw new Error('no userCardId from the sequence')
    await trx.updateTable('devices').set({ user_card_id: next }).where('id', '=', device.id).execute()
    await trx.deleteFrom('device_model_params').where('device_id', '=', device.id).execute()
    await trx.deleteFrom('device_sessions').where('device_id', '=', device.id).execute()
    await trx.insertInto('device_replacements').values({
      device_id: device.id, owner_id: user.id, old_user_card_id: device.user_card_id, new_user_card_id: next,
      disk_name: device.disk_name, created_at: new Date(s.clock.now()),
    }).execute()
    await markBusy(trx, device.id, 'replace', s.clock.busyMs, s.clock)
    return next
  })
  s.sim.kick(device.id, 'restarting')
  s.sim.resetPhone(device.id)
  await pushTo(s, users.map((u) => u.id), 'changeCard', { userCardId: device.user_card_id, diskName: device.disk_name })
  await pushRefresh(s, users.map((u) => u.id))
  return { oldUserCardId: device.user_card_id, newUserCardId, diskName: device.disk_name }
}

export const replacementRecords = async (s: DeviceServices, user: AuthUser): Promise<ReplacementRecord[]> => {
  const rows = await s.db.selectFrom('device_replacements').selectAll()
    .where('owner_id', '=', user.id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(100).execute()
  return rows.map((r) => ({
    id: r.id, oldUserCardId: r.old_user_card_id, newUserCardId: r.new_user_card_id, diskName: r.disk_name,
    ctime: new Date(r.created_at).toISOString(),
  }))
}
