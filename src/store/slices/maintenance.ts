// Maintenance slice: the last maintenance message (§3); the modal itself arrives as a ShowModal effect.
import type { CoreEvent } from '../../../worker/protocol/events.ts'
import type { MaintenanceMsg } from '../../../worker/protocol/system.ts'

export type MaintenanceState = MaintenanceMsg | null

export const initialMaintenance: MaintenanceState = null

export const reduceMaintenance = (state: MaintenanceState, event: CoreEvent): MaintenanceState =>
  event._tag === 'MaintenanceChanged' ? event.maintenance : state
