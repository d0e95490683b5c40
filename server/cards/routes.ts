// The device list (the device operations are server/devices/).
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import { listDevices } from './device-list.ts'

export const registerCardRoutes = (ctx: ServerContext): void => {
  const { app, db, route } = ctx
  route(app, catalogue.getDeviceList, ({ user }) => listDevices(db, user.id))
}
