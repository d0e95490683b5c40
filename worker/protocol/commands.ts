// Commands: the comlink API the core exposes to each tab, and the snapshot a tab paints from.
import * as Schema from 'effect/Schema'
import { UserInfo } from './session.ts'
import { Device } from './devices.ts'
import { MealTypeGroup } from './pay.ts'
import { MaintenanceMsg } from './system.ts'
import { CardCouponCounters, PushStatus, type EventBatch } from './events.ts'
import type { EndpointName } from './catalogue.ts'
import type { TabWritableKey } from './storage-keys.ts'

export const Snapshot = Schema.Struct({
  /** seq of the last state event folded into this snapshot. */
  seq: Schema.Number,
  session: Schema.Struct({ loggedIn: Schema.Boolean, user: Schema.NullOr(UserInfo), phone: Schema.NullOr(Schema.String) }),
  devices: Schema.Struct({
    list: Schema.Array(Device),
    fetchedAt: Schema.NullOr(Schema.Number),
    loading: Schema.Boolean,
    error: Schema.NullOr(Schema.String),
  }),
  mealTypes: Schema.Array(MealTypeGroup),
  maintenance: Schema.NullOr(MaintenanceMsg),
  push: Schema.Struct({ status: PushStatus, reconnectAttempts: Schema.Number }),
  cardCoupon: CardCouponCounters,
  announcementActive: Schema.Boolean,
  systemName: Schema.NullOr(Schema.String),
})
export type Snapshot = typeof Snapshot.Type

/** Where a tab is; route-dependent push rules (changeCard, removeAuth) are decided from this. */
export const TabRoute = Schema.Struct({
  path: Schema.String,
  search: Schema.Record(Schema.String, Schema.String),
  /** the card the viewer shows, when on the viewer. */
  viewerCardId: Schema.optional(Schema.NullOr(Schema.Number)),
  oneClickRepair: Schema.optional(Schema.Boolean),
})
export type TabRoute = typeof TabRoute.Type

export const TabHello = Schema.Struct({
  tabId: Schema.String,
  /** §3, decisions.md: per tab, from its sessionStorage; sent as a header on this tab's requests only. */
  channelCode: Schema.NullOr(Schema.String),
  route: TabRoute,
  visible: Schema.Boolean,
  /** last seq this tab applied (0 on a fresh tab); lets a reattaching tab catch up. */
  lastSeq: Schema.Number,
})
export type TabHello = typeof TabHello.Type

/** A call's outcome as a plain value: nothing crosses the boundary as a thrown exception. */
export type CallResult<A> =
  | { readonly ok: true; readonly data: A }
  | { readonly ok: false; readonly status: number; readonly msg: string; readonly silent: boolean }

export interface LoginInput {
  readonly phone: string
  readonly password: string
  readonly invitationUserName?: string | null
}

/** SMS-code sign-in: quick login, or registration when a password is given; either way the user is then logged in. */
export interface CodeLoginInput {
  readonly phone: string
  readonly code: string
  readonly inviteCode?: string | null
  /** registration: the new password in plain text (the core encrypts it like the login password). */
  readonly password?: string | null
}

export type Resync = { readonly kind: 'events'; readonly batch: EventBatch } | { readonly kind: 'snapshot'; readonly snapshot: Snapshot }

/**
 * The core's API, one instance per connected port. `attach` must be called first, with a MessagePort that receives
 * EventBatch values (transferred with Comlink.transfer).
 */
export interface CoreApi {
  attach(hello: TabHello, events: MessagePort): Promise<Snapshot>
  detach(): Promise<void>
  login(input: LoginInput): Promise<CallResult<UserInfo>>
  /** Quick login (or registration) with an SMS code; logged in exactly like `login`. */
  loginWithCode(input: CodeLoginInput): Promise<CallResult<UserInfo>>
  /** Re-reads personalInfo into dataInfo and phone and tells every tab (after binding a phone, say). */
  refreshSession(): Promise<CallResult<UserInfo>>
  /** A logout the user asked for: visit log operationType 2, then the exit action. */
  logout(): Promise<void>
  call(name: EndpointName, payload?: unknown): Promise<CallResult<unknown>>
  refreshDevices(): Promise<CallResult<ReadonlyArray<Device>>>
  reportRoute(route: TabRoute): Promise<void>
  reportVisibility(visible: boolean): Promise<void>
  resync(sinceSeq: number): Promise<Resync>
  getLocal(key: TabWritableKey): Promise<string | null>
  setLocal(key: TabWritableKey, value: string | null): Promise<void>
  ping(): Promise<'pong'>
  /** The maintenance modal's confirm: runs the exit action unless the calling tab is on the login page (§8). */
  exitFromMaintenance(): Promise<void>
  /** Test/debug only: closes the worker so tabs must detect it and reattach to a new one. */
  __terminate(): Promise<void>
}

/**
 * What the worker posts on a tab's event port: an EventBatch, or a notice that this tab was dropped behind (its
 * bounded queue overflowed) and must call `resync(lastSeq)`.
 */
export type PortDownMessage = EventBatch | { readonly resyncNeeded: true }
/** What a tab posts back on its event port: how many batches it has applied (flow control for frozen tabs). */
export type PortUpMessage = { readonly ack: number }

export { tabLockName } from './tab-lock.ts'
