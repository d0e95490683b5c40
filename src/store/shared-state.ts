// The projection of the core's shared state: one pure reducer per slice, folded over seq-numbered batches.
import type { CoreEvent, EventBatch } from '../../worker/protocol/events.ts'
import type { Snapshot } from '../../worker/protocol/commands.ts'
import { initialSession, reduceSession, type SessionState } from './slices/session.ts'
import { initialDevices, reduceDevices, type DevicesState } from './slices/devices.ts'
import { initialMealTypes, reduceMealTypes, type MealTypesState } from './slices/meal-types.ts'
import { initialMaintenance, reduceMaintenance, type MaintenanceState } from './slices/maintenance.ts'
import { initialPush, reducePush, type PushState } from './slices/push.ts'
import { initialCounters, reduceCounters, type CountersState } from './slices/counters.ts'
import { initialAnnouncement, reduceAnnouncement, type AnnouncementState } from './slices/announcement.ts'
import { initialSystemName, reduceSystemName, type SystemNameState } from './slices/system-name.ts'

export interface SharedState {
  /** seq of the last state event folded in. */
  readonly seq: number
  readonly session: SessionState
  readonly devices: DevicesState
  readonly mealTypes: MealTypesState
  readonly maintenance: MaintenanceState
  readonly push: PushState
  readonly counters: CountersState
  readonly announcementActive: AnnouncementState
  readonly systemName: SystemNameState
}

export const initialShared: SharedState = {
  seq: 0,
  session: initialSession,
  devices: initialDevices,
  mealTypes: initialMealTypes,
  maintenance: initialMaintenance,
  push: initialPush,
  counters: initialCounters,
  announcementActive: initialAnnouncement,
  systemName: initialSystemName,
}

/** Folds one event into every slice; slices keep their identity when the event does not concern them. */
export const reduce = (state: SharedState, event: CoreEvent): SharedState => {
  const next: SharedState = {
    seq: state.seq,
    session: reduceSession(state.session, event),
    devices: reduceDevices(state.devices, event),
    mealTypes: reduceMealTypes(state.mealTypes, event),
    maintenance: reduceMaintenance(state.maintenance, event),
    push: reducePush(state.push, event),
    counters: reduceCounters(state.counters, event),
    announcementActive: reduceAnnouncement(state.announcementActive, event),
    systemName: reduceSystemName(state.systemName, event),
  }
  const changed = (Object.keys(next) as Array<keyof SharedState>).some((k) => next[k] !== state[k])
  return changed ? next : state
}

/**
 * Applies the state events of a batch in order. Events at or below the current seq were already folded in (a
 * snapshot overlapping live events) and are skipped; effect events (seq null) are not state and pass through.
 */
export const applyBatch = (state: SharedState, batch: EventBatch): SharedState => {
  let current = state
  for (const { seq, event } of batch) {
    if (seq === null || seq <= current.seq) continue
    current = { ...reduce(current, event), seq }
  }
  return current
}

export const fromSnapshot = (snapshot: Snapshot): SharedState => ({
  seq: snapshot.seq,
  session: snapshot.session,
  devices: snapshot.devices,
  mealTypes: snapshot.mealTypes,
  maintenance: snapshot.maintenance,
  push: snapshot.push,
  counters: snapshot.cardCoupon,
  announcementActive: snapshot.announcementActive,
  systemName: snapshot.systemName,
})
