// System area: maintenance message (§3, §7), system name for the title (§1), statistics point.
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { NameText } from './limits.ts'
import { SwitchFlag } from './switch-flag.ts'

export const MaintenanceMsg = Schema.Struct({
  maintenanceSwitch: SwitchFlag,
  maintenanceContent: Schema.String,
  showTime: Schema.String,
})
export type MaintenanceMsg = typeof MaintenanceMsg.Type

export const SystemConfig = Schema.Struct({ systemName: Schema.String })

export const systemEndpoints = {
  /** getRoomMaintenanceMsg: path not given by the spec; ours. */
  getRoomMaintenanceMsg: endpoint({
    name: 'getRoomMaintenanceMsg', method: 'GET', repeatable: true, path: '/api/public/v1/room/getRoomMaintenanceMsg',
    request: NoPayload, response: MaintenanceMsg,
  }),
  /**
   * §7: "a maintenance-message GET to a separate maintenance host also exists". The same message from a host that stays
   * up while the API is down for maintenance (a static file in a deployment); asked when getRoomMaintenanceMsg fails.
   */
  getMaintenanceHostMsg: endpoint({
    name: 'getMaintenanceHostMsg', method: 'GET', repeatable: true, path: '/maintenance/v1/message', host: 'maintenance',
    request: NoPayload, response: MaintenanceMsg,
  }),
  /** The system name configuration behind the title (§1); ours. */
  getSystemConfig: endpoint({
    name: 'getSystemConfig', method: 'GET', repeatable: true, path: '/api/public/v1/system/config',
    request: NoPayload, response: SystemConfig,
  }),
  stat: endpoint({
    name: 'stat', method: 'POST', repeatable: false, idempotent: true, path: '/api/public/v1/systemBuriedPoint/stat',
    request: Schema.Struct({ pointName: NameText }), response: Schema.Unknown, silentFailure: true,
  }),
} as const
