// Commands: the comlink API the core exposes to each tab, and the snapshot a tab paints from.
import * as Schema from 'effect/Schema'
import type { UserInfo } from './session.ts'
import type { Device } from './devices.ts'
import type { MealTypeGroup } from './pay.ts'
import type { EventBatch, HomeView, StateEvent } from './events.ts'
import type { Catalogue, EndpointName } from './catalogue.ts'
import type { RequestOf, ResponseOf } from './endpoint.ts'
import type { SharedState } from './projection/index.ts'
import type { TabWritableKey } from './storage-keys.ts'
import type { CoreToDecoder, CoreToTab, OpenStreamInput } from './stream-ports.ts'
import type { GroupAction } from './group.ts'

/** A group command as a tab asks for it (worker/group/group-ledger.ts). */
export interface GroupCommandInput {
  /** a UUID made by the tab (crypto.randomUUID): the server applies a command once per phone by it. */
  readonly id: string
  readonly action: GroupAction
  readonly userCardIds: ReadonlyArray<number>
  readonly text?: string | null
  readonly fileId?: number | null
  readonly fileName?: string | null
  /** the command whose failed phones this one retries (重试失败项). */
  readonly retryOf?: string | null
}

/** The shared state a tab paints from: the one projection's state (./projection/index.ts). */
export type Snapshot = SharedState

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
  /** true on the first attach of a page load: a launch of the app (visit log, room-status check; decisions.md). */
  launch: Schema.Boolean,
})
export type TabHello = typeof TabHello.Type

/** What a tab already holds when it (re)attaches: lets the core send only what is missing, or a snapshot. */
export interface TabHolds {
  /** the worker generation the tab's state came from; null on a fresh tab. */
  readonly generation: string | null
  /**
   * The tab's state (null on a fresh tab). A worker that died before persisting its last events (Android may kill it
   * at any time) is replaced by one that recovers from this what it can (worker/events/recovery.ts).
   */
  readonly state: Snapshot | null
}

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

/** A call's answer, typed by its endpoint in the catalogue (data false: the server sent empty data, §7). */
export type CallResultOf<N extends EndpointName> = CallResult<ResponseOf<Catalogue[N]> | false>
/** The payload of a call; endpoints whose request is empty may be called without one. */
export type CallArgs<N extends EndpointName> = {} extends RequestOf<Catalogue[N]>
  ? [payload?: RequestOf<Catalogue[N]>]
  : [payload: RequestOf<Catalogue[N]>]

/** The recent event log with its base snapshot, for a bug report (tokens and phone numbers redacted). */
export interface EventLogExport {
  readonly kind: 'cloud-phone-event-log'
  readonly version: 1
  readonly exportedAt: number
  /** the state before the first event; replaying the events onto it through the projection gives `head`. */
  readonly base: Snapshot
  readonly events: ReadonlyArray<{ readonly seq: number; readonly event: StateEvent }>
  readonly head: Snapshot
}

/**
 * The core's API, one instance per connected port. `attach` must be called first, with a MessagePort on which the core
 * posts DownBatch values (transferred with Comlink.transfer) and the tab posts UpMessage values.
 */
/** What `attach` answers: the replay rule of the catalogue this worker serves. */
export interface Attached {
  /** the catalogue's endpoints that are safe to send again (Endpoint.repeatable): the tab's replay rule on a death. */
  readonly repeatable: ReadonlyArray<EndpointName>
  /** the endpoints whose failure is silent (Endpoint.silentFailure): an "outcome unknown" of theirs is silent too. */
  readonly silent: ReadonlyArray<EndpointName>
}

export interface CoreApi {
  attach(hello: TabHello, holds: TabHolds, events: MessagePort): Promise<Attached>
  /**
   * The name of the Web Lock this worker holds for its lifetime (null without Web Locks), answered as soon as it is
   * held, without waiting for the core to start: a tab that waits on it learns of the worker's death (issue 21).
   */
  lifeLock(): Promise<string | null>
  detach(): Promise<void>
  login(input: LoginInput): Promise<CallResult<UserInfo>>
  /** Quick login (or registration) with an SMS code; logged in exactly like `login`. */
  loginWithCode(input: CodeLoginInput): Promise<CallResult<UserInfo>>
  /** Re-reads personalInfo into dataInfo and phone and tells every tab (after binding a phone, say). */
  refreshSession(): Promise<CallResult<UserInfo>>
  /** A logout the user asked for: visit log operationType 2, then the exit action. */
  logout(): Promise<void>
  call<N extends EndpointName>(name: N, ...payload: CallArgs<N>): Promise<CallResultOf<N>>
  refreshDevices(): Promise<CallResult<ReadonlyArray<Device>>>
  /** Loads the meal types again (a purchase screen that finds none); every tab gets them as state. */
  loadMealTypes(): Promise<CallResult<ReadonlyArray<MealTypeGroup>>>
  reportRoute(route: TabRoute): Promise<void>
  reportVisibility(visible: boolean): Promise<void>
  getLocal(key: TabWritableKey): Promise<string | null>
  setLocal(key: TabWritableKey, value: string | null): Promise<void>
  /** The home's 列表 / 宫格 view and columns, for every tab (shared state, kept across an exit). */
  setHomeView(view: HomeView): Promise<void>
  ping(): Promise<'pong'>
  /** The maintenance modal's confirm: runs the exit action unless the calling tab is on the login page (§8). */
  exitFromMaintenance(): Promise<void>
  /** The recent event log and its base snapshot, redacted, for a bug report (settings screen). */
  exportLog(): Promise<EventLogExport>
  /**
   * Shows a phone's stream in this tab: the core posts video/audio bytes on `decoder` (a port of the tab's decoder
   * worker) and status/device messages on `control`, and takes input from `control`. Answers the viewer id.
   */
  openStream(input: OpenStreamInput, decoder: MessagePort, control: MessagePort): Promise<number>
  closeStream(viewerId: number): Promise<void>
  /**
   * The home's wall in this tab: `port` carries TabToWall up (the cards whose tiles are on screen, card tokens) and
   * WallToTab down (stills, ended thumbnails, token requests); every tab's walls share the core's one stream socket.
   */
  openWall(port: MessagePort): Promise<number>
  closeWall(wallId: number): Promise<void>
  /** Test/bench only: the stream sockets this core opened so far and the phones open on the server now. */
  streamStats(): Promise<{ readonly socketsOpened: number; readonly phonesOpen: number; readonly socketOpen: boolean; readonly thumbsOpen: number }>
  /**
   * Group control (issue 23): records the command in the ledger (the projection's `group` slice) and sends it until
   * every phone has an answer; answers once it is recorded. The id is the tab's UUID: asking again is the same command.
   */
  groupCommand(input: GroupCommandInput): Promise<CallResult<{ readonly id: string }>>
  /** Test/debug only: closes the worker so tabs must detect it and reattach to a new one. */
  __terminate(): Promise<void>
}

/**
 * What the core posts on a tab's event port: numbered batches. A batch starts with a whole snapshot when the tab is
 * new to this worker generation or fell behind the in-memory log; its state events then follow the tab's seq without
 * a gap, with effect events in the order they were emitted.
 */
export interface DownBatch {
  readonly n: number
  /** the core needs this batch acknowledged (it fills the tab's window); other batches are not answered. */
  readonly ack: boolean
  readonly generation: string
  readonly snapshot: Snapshot | null
  readonly items: EventBatch
}
/** What a tab posts back: the batch it applied when asked to (flow control), or a request for a snapshot. */
export type UpMessage = { readonly ack: number } | { readonly resync: true }


