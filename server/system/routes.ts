// System endpoints: maintenance message and system configuration (both public), statistics points.
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import { readMaintenance } from './maintenance.ts'

export const registerSystemRoutes = (ctx: ServerContext): void => {
  const { app, db, publicRoute } = ctx

  publicRoute(app, catalogue.getRoomMaintenanceMsg, () => readMaintenance(db))

  publicRoute(app, catalogue.getSystemConfig, async () => {
    const row = await db.selectFrom('system_config').select('value').where('key', '=', 'systemName').executeTakeFirst()
    return { systemName: row?.value ?? '' }
  })

  publicRoute(app, catalogue.stat, async ({ payload, user }) => {
    await db.insertInto('stat_points').values({ point_name: payload.pointName, user_id: user?.id ?? null }).execute()
    return null
  })
}
