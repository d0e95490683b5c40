// The one projection: folds state events into the shared state. The worker's snapshot and every tab's store use this
// same fold, so they cannot disagree about what a sequence of events means. Pure and free of Effect (the tab imports it
// before first paint).
import type { CoreEvent, Delivered, StateEvent } from '../events.ts'
import { initialAnnouncement, reduceAnnouncement, type AnnouncementSlice } from './announcement.ts'
import { initialAvatar, reduceAvatar, type AvatarSlice } from './avatar.ts'
import { initialHomeView, reduceHomeView, type HomeViewSlice } from './home-view.ts'
import { initialCounters, reduceCounters, type CountersSlice } from './counters.ts'
import { initialDevices, reduceDevices, type DevicesSlice } from './devices.ts'
import { initialGroup, reduceGroup, type GroupSlice } from './group.ts'
import { initialMaintenance, reduceMaintenance, type MaintenanceSlice } from './maintenance.ts'
import { initialMealTypes, reduceMealTypes, type MealTypesSlice } from './meal-types.ts'
import { initialPush, reducePush, type PushSlice } from './push.ts'
import { initialSession, reduceSession, type SessionSlice } from './session.ts'
import { initialSystemName, reduceSystemName, type SystemNameSlice } from './system-name.ts'

export type { AnnouncementSlice, AvatarSlice, CountersSlice, DevicesSlice, GroupSlice, MaintenanceSlice, MealTypesSlice, PushSlice, SessionSlice, SystemNameSlice, HomeViewSlice }

export interface SharedState {
  /** seq of the last state event folded in. */
  readonly seq: number
  readonly session: SessionSlice
  readonly devices: DevicesSlice
  readonly mealTypes: MealTypesSlice
  readonly maintenance: MaintenanceSlice
  readonly push: PushSlice
  readonly counters: CountersSlice
  readonly announcementActive: AnnouncementSlice
  readonly systemName: SystemNameSlice
  readonly avatar: AvatarSlice
  readonly homeView: HomeViewSlice
  /** group control's ledger (the recent commands and each phone's result). */
  readonly group: GroupSlice
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
  avatar: initialAvatar,
  homeView: initialHomeView,
  group: initialGroup,
}

/**
 * What belongs to an account and goes with it: on an exit or a login as somebody else, these slices start over, in
 * this one place. The system name, the maintenance notice, the push status and the home's view are not the account's.
 */
const resetAccount = (s: SharedState): SharedState => ({
  ...s,
  devices: initialDevices,
  mealTypes: initialMealTypes,
  counters: initialCounters,
  announcementActive: initialAnnouncement,
  avatar: initialAvatar,
  group: initialGroup,
})

const changesAccount = (s: SharedState, e: StateEvent): boolean =>
  e._tag === 'SessionEnded' || (e._tag === 'SessionChanged' && s.session.user?.username !== e.user.username)

/** Folds one state event; slices keep their identity when the event does not concern them. */
export const reduce = (state: SharedState, event: StateEvent, seq: number): SharedState => {
  const s = changesAccount(state, event) ? resetAccount(state) : state
  return {
    seq,
    session: reduceSession(s.session, event),
    devices: reduceDevices(s.devices, event),
    mealTypes: reduceMealTypes(s.mealTypes, event),
    maintenance: reduceMaintenance(s.maintenance, event),
    push: reducePush(s.push, event),
    counters: reduceCounters(s.counters, event),
    announcementActive: reduceAnnouncement(s.announcementActive, event),
    systemName: reduceSystemName(s.systemName, event),
    avatar: reduceAvatar(s.avatar, event),
    homeView: reduceHomeView(s.homeView, event),
    // a state persisted before group control existed has no ledger yet
    group: reduceGroup(s.group ?? initialGroup, event),
  }
}

export const isStateEvent = (d: Delivered): d is { readonly seq: number; readonly event: StateEvent } => d.seq !== null

/** Applies the state events of a batch in order, skipping any at or below the state's seq; effects are not state. */
export const applyDelivered = (state: SharedState, batch: ReadonlyArray<Delivered>): SharedState => {
  let current = state
  for (const d of batch) {
    if (d.seq === null || d.seq <= current.seq) continue
    current = reduce(current, d.event as StateEvent, d.seq)
  }
  return current
}

export type { CoreEvent }
