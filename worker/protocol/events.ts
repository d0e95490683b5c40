// Events: the only way state reaches tabs. State events are reduced into each tab's store and logged with a seq;
// effect events (toast, navigate, modal, ...) are delivered once, broadcast or to one tab, and never replayed.
import * as Schema from 'effect/Schema'
import { UserInfo } from './session.ts'
import { Device } from './devices.ts'
import { MealTypeGroup } from './pay.ts'
import { MaintenanceMsg } from './system.ts'
import { GROUP_ACTIONS, GroupPhoneResult } from './group.ts'

export const CardCouponCounters = Schema.Struct({
  my: Schema.Number,
  activationCode: Schema.Number,
  coupon: Schema.Number,
})
export type CardCouponCounters = typeof CardCouponCounters.Type

export const PushStatus = Schema.Literals(['closed', 'connecting', 'open', 'reconnecting'])
export type PushStatus = typeof PushStatus.Type

// ---- state events (logged, seq-numbered, folded by the one projection in ./projection/) ----
/** A login, a quick login, a registration or a refresh of the account (after binding a phone). */
export const SessionChanged = Schema.TaggedStruct('SessionChanged', {
  user: UserInfo,
  phone: Schema.NullOr(Schema.String),
})
/** How a session ended: what every tab tells the user, and whether tabs go to login. */
export const SessionEnd = Schema.Struct({
  /** worker time of the exit; a tab that attaches shortly after still tells the user why. */
  at: Schema.Number,
  /** the toast of a session-ending error (§8); null for a logout the user asked for. */
  reason: Schema.NullOr(Schema.String),
  /** the forced-offline notice (§4): a 提示 modal with 去登录 instead of a redirect. */
  notice: Schema.NullOr(Schema.String),
  redirect: Schema.Boolean,
})
export type SessionEnd = typeof SessionEnd.Type
export const SessionEnded = Schema.TaggedStruct('SessionEnded', { end: SessionEnd })
export const DeviceListLoading = Schema.TaggedStruct('DeviceListLoading', { loading: Schema.Boolean })
export const DeviceListLoaded = Schema.TaggedStruct('DeviceListLoaded', {
  devices: Schema.Array(Device),
  fetchedAt: Schema.Number,
})
export const DeviceListFailed = Schema.TaggedStruct('DeviceListFailed', { msg: Schema.String })
export const MealTypesLoaded = Schema.TaggedStruct('MealTypesLoaded', { groups: Schema.Array(MealTypeGroup) })
export const MaintenanceChanged = Schema.TaggedStruct('MaintenanceChanged', { maintenance: MaintenanceMsg })
export const PushStatusChanged = Schema.TaggedStruct('PushStatusChanged', {
  status: PushStatus,
  reconnectAttempts: Schema.Number,
})
/** sendActivationCode / sendCouponMsg: one more of that kind (and of `my`). */
export const CounterIncremented = Schema.TaggedStruct('CounterIncremented', {
  kind: Schema.Literals(['activationCode', 'coupon']),
})
export const AnnouncementFlagChanged = Schema.TaggedStruct('AnnouncementFlagChanged', { active: Schema.Boolean })
export const SystemNameChanged = Schema.TaggedStruct('SystemNameChanged', { systemName: Schema.String })
/** The home's view, chosen in any tab (a preference of the browser, kept across an exit). */
export const HomeView = Schema.Struct({ mode: Schema.Literals(['list', 'grid']), columns: Schema.Literals([2, 3, 4]) })
export type HomeView = typeof HomeView.Type
export const HomeViewChanged = Schema.TaggedStruct('HomeViewChanged', { view: HomeView })
/** The account's avatar as getHeadPortrait last answered (an http(s) URL, or null for none): every tab shows it. */
export const AvatarChanged = Schema.TaggedStruct('AvatarChanged', { url: Schema.NullOr(Schema.String) })

/** Group control's ledger (worker/group/group-ledger.ts): a command the core sends until the server answered it. */
export const GroupCommand = Schema.Struct({
  id: Schema.String,
  action: Schema.Literals(GROUP_ACTIONS),
  /** the chosen phones with the names they had when chosen. */
  phones: Schema.Array(Schema.Struct({ userCardId: Schema.Number, diskName: Schema.String })),
  text: Schema.NullOr(Schema.String),
  fileId: Schema.NullOr(Schema.Number),
  fileName: Schema.NullOr(Schema.String),
  /** the command whose failed phones this one retries. */
  retryOf: Schema.NullOr(Schema.String),
  issuedAt: Schema.Number,
})
export type GroupCommand = typeof GroupCommand.Type
export const GroupCommandIssued = Schema.TaggedStruct('GroupCommandIssued', { command: GroupCommand })
/** The server's per-phone answers (a re-send answers the same for the phones it had already reached). */
export const GroupCommandAnswered = Schema.TaggedStruct('GroupCommandAnswered', {
  id: Schema.String, results: Schema.Array(GroupPhoneResult), at: Schema.Number,
})
/** The server refused the whole command (its status and Chinese reason): every phone shows it. */
export const GroupCommandRefused = Schema.TaggedStruct('GroupCommandRefused', {
  id: Schema.String, status: Schema.Number, msg: Schema.String, at: Schema.Number,
})

export const StateEvent = Schema.Union([
  SessionChanged, SessionEnded, DeviceListLoading, DeviceListLoaded, DeviceListFailed, MealTypesLoaded,
  MaintenanceChanged, PushStatusChanged, CounterIncremented, AnnouncementFlagChanged, SystemNameChanged, AvatarChanged,
  HomeViewChanged,
  GroupCommandIssued, GroupCommandAnswered, GroupCommandRefused,
])
export type StateEvent = typeof StateEvent.Type

// ---- effect events (transient) ----
// Each carries only what the core sends; every rule about them is decided in the core when it emits (the delays run
// there, the one-click-repair flag is read from the tab's reported route, the maintenance confirm's "unless on login"
// is exitFromMaintenance's), and the tab just performs them.
export const ShowToast = Schema.TaggedStruct('ShowToast', { text: Schema.String })
export const NavigateTo = Schema.TaggedStruct('NavigateTo', {
  to: Schema.String,
  search: Schema.optional(Schema.Record(Schema.String, Schema.String)),
  replace: Schema.Boolean,
})
/** An alert with one button, no cancel and no mask close (removeAuth). */
export const ShowModal = Schema.TaggedStruct('ShowModal', {
  /** identifies the modal so the same one is not stacked twice. */
  key: Schema.String,
  title: Schema.String,
  content: Schema.String,
  confirmText: Schema.String,
})
/** changeCard in the viewer: clear the one-click-repair flag of that tab. */
export const ClearRepairFlag = Schema.TaggedStruct('ClearRepairFlag', {})

export const EffectEvent = Schema.Union([ShowToast, NavigateTo, ShowModal, ClearRepairFlag])
export type EffectEvent = typeof EffectEvent.Type

export const CoreEvent = Schema.Union([StateEvent, EffectEvent])
export type CoreEvent = typeof CoreEvent.Type

/**
 * What travels on a tab's event port: a batch. State events carry their log seq (strictly increasing by 1 across
 * the log); effect events carry seq null and are not logged.
 */
export const Delivered = Schema.Struct({ seq: Schema.NullOr(Schema.Number), event: CoreEvent })
export type Delivered = typeof Delivered.Type
export const EventBatch = Schema.Array(Delivered)
export type EventBatch = typeof EventBatch.Type
