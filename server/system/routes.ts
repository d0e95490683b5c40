// System endpoints: maintenance message and system configuration (both public), statistics points (volume-limited).
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import { analyticsAllowance } from './analytics.ts'
import { readMaintenance } from './maintenance.ts'

export const registerSystemRoutes = (ctx: ServerContext): void => {
  const { app, db, publicRoute } = ctx
  const allow = analyticsAllowance(db)

  publicRoute(app, catalogue.getRoomMaintenanceMsg, () => readMaintenance(db))
  // the maintenance host's GET (§7): in a deployment a static file on a host of its own; here the same message
  publicRoute(app, catalogue.getMaintenanceHostMsg, () => readMaintenance(db))

  publicRoute(app, catalogue.getSystemConfig, async () => {
    const row = await db.selectFrom('system_config').select('value').where('key', '=', 'systemName').executeTakeFirst()
    return { systemName: row?.value ?? '' }
  })

  // a statistics point is an anonymous write like the analytics reports: the same volume limit
  publicRoute(app, catalogue.stat, async ({ payload, user, c }) => {
    await allow(c, user, 1)
    await db.insertInto('stat_points').values({ point_name: payload.pointName, user_id: user?.id ?? null }).execute()
    return null
  })
}
