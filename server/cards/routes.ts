// Device endpoints served by the core: the list, and reboot/connect unless server/devices/ registered its own.
import { randomBytes } from 'node:crypto'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import { DomainError, Status } from '../http/errors.ts'
import { accessibleDevice } from './access.ts'
import { listDevices, minutesLeft } from './device-list.ts'

export const DEVICE_EXPIRED_MSG = '云手机已过期，请续费后使用'

export const registerCardRoutes = (ctx: ServerContext): void => {
  const { app, db, route, registered } = ctx

  if (!registered.has(catalogue.getDeviceList.name)) {
    route(app, catalogue.getDeviceList, ({ user }) => listDevices(db, user.id))
  }

  if (!registered.has(catalogue.rebootDevice.name)) {
    route(app, catalogue.rebootDevice, async ({ payload, user }) => {
      const device = await accessibleDevice(db, user.id, payload.userCardId)
      if (minutesLeft(device.expires_at, Date.now()) <= 0) throw new DomainError(Status.deviceExpired, DEVICE_EXPIRED_MSG)
      return null
    })
  }

  if (!registered.has(catalogue.connect.name)) {
    route(app, catalogue.connect, async ({ payload, user, c }) => {
      const device = await accessibleDevice(db, user.id, payload.userCardId)
      if (minutesLeft(device.expires_at, Date.now()) <= 0) throw new DomainError(Status.deviceExpired, DEVICE_EXPIRED_MSG)
      const host = c.req.header('host') ?? '127.0.0.1'
      return {
        internetHttps: `${host}/`,
        sn: `SN${device.user_card_id}`,
        userCardId: device.user_card_id,
        localIp: `10.0.${(device.id >> 8) & 255}.${device.id & 255}`,
        cardToken: randomBytes(16).toString('hex'),
      }
    })
  }
}
