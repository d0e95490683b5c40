// Maintenance slice: the last maintenance message (§3) and the period it belongs to. A period starts when the switch
// turns on or its content or showTime changes, and ends when it turns off (decisions.md); each tab shows the modal
// once per period, so the period number, not the text, is what a tab remembers.
import type { CoreEvent } from '../events.ts'
import type { MaintenanceMsg } from '../system.ts'

export interface MaintenanceSlice {
  readonly msg: MaintenanceMsg | null
  /** increases by one each time a maintenance period starts; 0 before the first. */
  readonly period: number
}

export const initialMaintenance: MaintenanceSlice = { msg: null, period: 0 }

const startsPeriod = (prev: MaintenanceMsg | null, next: MaintenanceMsg): boolean =>
  next.maintenanceSwitch &&
  (prev === null || !prev.maintenanceSwitch || prev.maintenanceContent !== next.maintenanceContent || prev.showTime !== next.showTime)

export const reduceMaintenance = (state: MaintenanceSlice, event: CoreEvent): MaintenanceSlice =>
  event._tag === 'MaintenanceChanged'
    ? { msg: event.maintenance, period: startsPeriod(state.msg, event.maintenance) ? state.period + 1 : state.period }
    : state
