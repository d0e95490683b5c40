// The shared state as a Schema (the projection's SharedState, worker/protocol/projection/index.ts): what the core
// decodes where a state crosses into it from outside its memory, the projection persisted in IndexedDB and the state a
// tab hands over on (re)attach. A value that does not decode is not used (the core starts from the initial state, or
// ignores what the tab holds); the projection itself stays Schema-free, the tab's entry imports it.
import * as Effect from 'effect/Effect'
import * as Schema from 'effect/Schema'
import { CardCouponCounters, GroupCommand, HomeView, PushStatus, SessionEnd } from './events.ts'
import { GroupPhoneResult } from './group.ts'
import { initialHomeView } from './projection/home-view.ts'
import { Device } from './devices.ts'
import { MealTypeGroup } from './pay.ts'
import type { SharedState as SharedStateType } from './projection/index.ts'
import { UserInfo } from './session.ts'
import { MaintenanceMsg } from './system.ts'

export const SharedState = Schema.Struct({
  seq: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  session: Schema.Struct({
    loggedIn: Schema.Boolean,
    user: Schema.NullOr(UserInfo),
    phone: Schema.NullOr(Schema.String),
    ended: Schema.NullOr(SessionEnd),
  }),
  devices: Schema.Struct({
    list: Schema.Array(Device),
    fetchedAt: Schema.NullOr(Schema.Number),
    loading: Schema.Boolean,
    error: Schema.NullOr(Schema.String),
  }),
  mealTypes: Schema.Array(MealTypeGroup),
  maintenance: Schema.Struct({ msg: Schema.NullOr(MaintenanceMsg), period: Schema.Number }),
  push: Schema.Struct({ status: PushStatus, reconnectAttempts: Schema.Number }),
  counters: CardCouponCounters,
  announcementActive: Schema.Boolean,
  systemName: Schema.NullOr(Schema.String),
  // a state persisted before the avatar slice existed has none: no avatar
  avatar: Schema.NullOr(Schema.String).pipe(Schema.withDecodingDefault(Effect.succeed(null))),
  // a state persisted before the home's view was shared state: the default view
  homeView: HomeView.pipe(Schema.withDecodingDefault(Effect.succeed(initialHomeView))),
  // a state persisted before group control existed has no ledger yet
  group: Schema.Struct({
    commands: Schema.Array(Schema.Struct({
      command: GroupCommand,
      results: Schema.Array(GroupPhoneResult),
      refused: Schema.NullOr(Schema.Struct({ status: Schema.Number, msg: Schema.String })),
      answeredAt: Schema.NullOr(Schema.Number),
    })),
  }).pipe(Schema.withDecodingDefault(Effect.succeed({ commands: [] }))),
})

/** The projection as last written, with the worker generation that wrote it (worker/storage/storage.ts). */
export const PersistedState = Schema.Struct({ generation: Schema.String, state: SharedState })

// the schema and the projection's hand-written type must describe the same value
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameShape: Same<typeof SharedState.Type, SharedStateType> = true
void sameShape
