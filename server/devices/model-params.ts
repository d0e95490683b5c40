// Model parameters: the manufacturer/model identity a device shows apps. Factory values are derived from the card;
// the owner may change (new identity, device restarts) or restore them; an authorised user may only look.
import { createHash } from 'node:crypto'
import type { DeviceModel, ModelParameters } from '../../worker/protocol/devices.ts'
import type { AuthUser } from '../context.ts'
import { accessDevice, requireNotExpired, requireOwner, type DeviceRow } from './access.ts'
import { markBusy, requireNotBusy } from './busy.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import type { DeviceServices } from './services.ts'
import type { DevicesDb } from './tables.ts'

const digits = (seed: string, n: number): string => {
  let out = ''
  let block = seed
  while (out.length < n) {
    block = createHash('sha256').update(block).digest('hex')
    out += block.replace(/[^0-9]/g, '')
  }
  return out.slice(0, n)
}

/** Luhn check digit, as real IMEIs carry. */
const luhn = (body: string): string => {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return String((10 - (sum % 10)) % 10)
}

const identity = (seed: string) => {
  const body = `86${digits(`imei:${seed}`, 12)}`
  return {
    imei: body + luhn(body),
    serial_no: createHash('sha256').update(`sn:${seed}`).digest('hex').slice(0, 12).toUpperCase(),
    android_id: createHash('sha256').update(`aid:${seed}`).digest('hex').slice(0, 16),
  }
}

const modelRows = (db: DevicesDb) => db.selectFrom('device_models').selectAll().orderBy('id')

const toModel = (m: { manufacturer: string; brand: string; model: string; market_name: string }): DeviceModel => ({
  manufacturer: m.manufacturer, brand: m.brand, model: m.model, marketName: m.market_name,
})

const ensureParams = async (s: DeviceServices, device: DeviceRow) => {
  const existing = await s.db.selectFrom('device_model_params').selectAll().where('device_id', '=', device.id).executeTakeFirst()
  if (existing) return existing
  const models = await modelRows(s.db).execute()
  const factory = models[device.user_card_id % models.length]!
  await s.db.insertInto('device_model_params')
    .values({ device_id: device.id, model_id: factory.id, factory_model_id: factory.id, ...identity(`${device.user_card_id}:factory`) })
    .onConflict((oc) => oc.column('device_id').doNothing())
    .execute()
  return s.db.selectFrom('device_model_params').selectAll().where('device_id', '=', device.id).executeTakeFirstOrThrow()
}

const toParams = async (s: DeviceServices, device: DeviceRow): Promise<ModelParameters> => {
  const p = await ensureParams(s, device)
  const m = await s.db.selectFrom('device_models').selectAll().where('id', '=', p.model_id).executeTakeFirstOrThrow()
  return {
    userCardId: device.user_card_id, ...toModel(m), imei: p.imei, serialNo: p.serial_no, androidId: p.android_id,
    modified: p.model_id !== p.factory_model_id,
  }
}

export const getParams = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<ModelParameters> => {
  const { device } = await accessDevice(s.db, user.id, userCardId)
  return toParams(s, device)
}

export const manufacturers = async (s: DeviceServices): Promise<string[]> =>
  [...new Set((await modelRows(s.db).execute()).map((m) => m.manufacturer))]

export const modelsOf = async (s: DeviceServices, manufacturer: string): Promise<DeviceModel[]> =>
  (await modelRows(s.db).where('manufacturer', '=', manufacturer).execute()).map(toModel)


const ownedUsable = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<DeviceRow> => {
  const access = await accessDevice(s.db, user.id, userCardId)
  requireOwner(access, DeviceMsg.granteeCannotChangeModel)
  requireNotExpired(access.device, s.clock)
  await requireNotBusy(s.db, access.device.id, s.clock)
  await ensureParams(s, access.device)
  return access.device
}

const restartForModel = async (s: DeviceServices, device: DeviceRow): Promise<void> => {
  await markBusy(s.db, device.id, 'model', s.clock.rebootMs, s.clock)
  s.sim.kick(device.id, 'restarting')
}

export const updateParams = async (
  s: DeviceServices, user: AuthUser, userCardId: number, manufacturer: string, model: string,
): Promise<ModelParameters> => {
  const device = await ownedUsable(s, user, userCardId)
  const target = await modelRows(s.db).where('manufacturer', '=', manufacturer).where('model', '=', model).executeTakeFirst()
  if (!target) throw deviceError(DeviceStatus.notFound, DeviceMsg.modelNotFound)
  await s.db.updateTable('device_model_params')
    .set({ model_id: target.id, ...identity(`${device.user_card_id}:${target.id}:${s.clock.now()}`) })
    .where('device_id', '=', device.id).execute()
  await restartForModel(s, device)
  return toParams(s, device)
}

export const restoreParams = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<ModelParameters> => {
  const device = await ownedUsable(s, user, userCardId)
  await s.db.updateTable('device_model_params')
    .set((eb) => ({ model_id: eb.ref('factory_model_id'), ...identity(`${device.user_card_id}:factory`) }))
    .where('device_id', '=', device.id).execute()
  await restartForModel(s, device)
  return toParams(s, device)
}
