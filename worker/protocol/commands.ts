// The command contract: every command a tab can send the core, declared once, with the schema of its arguments
// (`request`, a tuple) and of its answer (`result`). Everything else derives from this table: the CoreApi type the
// worker implements and each tab calls (src/core/connect.ts hands screens exactly this type), the worker's boundary
// decoding of every command (worker/api/core-api.ts: a malformed command is refused there, before any core code runs),
// and the replay rule's table (./on-death.ts, keyed by CommandName). The tab imports this file for types only, so the
// schemas never reach the tab's bundle.
//
// Answers: a command that can change the shared state answers a Reply (a CallResult plus `seq`) or an Ack (`seq` alone):
// `seq` is the log's head when the command was answered, so every state event the command caused is at or below it,
// and `CoreClient.reached(seq)` resolves once this tab's store has applied it. Link plumbing (attach, ping, route,
// storage keys, streams) answers its plain value.
import * as Schema from 'effect/Schema'
import type { Catalogue, EndpointName } from './catalogue.ts'
import { ENDPOINT_NAMES } from './endpoint-flags.ts'
import type { RequestOf, ResponseOf } from './endpoint.ts'
import { Device } from './devices.ts'
import { HomeView, StateEvent, type EventBatch } from './events.ts'
import { GROUP_ACTIONS, GROUP_COMMAND_ID, GROUP_TEXT_MAX } from './group-rules.ts'
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency.ts'
import { AccountText, CodeText, Text } from './limits.ts'
import { MealTypeGroup } from './pay.ts'
import type { SharedState as SharedStateType } from './projection/index.ts'
import { UserInfo } from './session.ts'
import { SharedState } from './shared-state.ts'
import { TAB_WRITABLE_KEYS } from './storage-keys.ts'
import { StreamPresetSchema } from './stream-schema.ts'

/** The shared state a tab paints from: the one projection's state (./projection/index.ts). */
export type Snapshot = SharedStateType

// ---- building blocks ----

/** A MessagePort handed over with a command (transferred by comlink); in unit tests a fake with the same methods. */
const Port = Schema.declare((u: unknown): u is MessagePort =>
  typeof u === 'object' && u !== null && typeof (u as { postMessage?: unknown }).postMessage === 'function', { expected: 'a MessagePort' })

const Seq = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** A call's failure as a plain value: nothing crosses the boundary as a thrown exception. */
const Failure = { ok: Schema.Literal(false), status: Schema.Number, msg: Schema.String, silent: Schema.Boolean }

/** A command's outcome with the log head it left (`seq`): what every state-changing command answers. */
export const Reply = <S extends Schema.Top>(data: S) =>
  Schema.Union([Schema.Struct({ ok: Schema.Literal(true), data, seq: Seq }), Schema.Struct({ ...Failure, seq: Seq })])

/** The answer of a state-changing command that has no value to give. */
export const Ack = Schema.Struct({ seq: Seq })
export type Ack = typeof Ack.Type

/**
 * An endpoint of the catalogue, by name (checked against the catalogue's names, generated from it: the worker's entry
 * does not load the catalogue's schemas, worker/http/wire.ts does on the first call).
 */
const endpointNames: ReadonlySet<string> = new Set(ENDPOINT_NAMES)
/** an idempotency key (./idempotency.ts): the server would refuse any other shape. */
export const IdempotencyKeySchema = Schema.String.check(Schema.isPattern(IDEMPOTENCY_KEY_PATTERN))

export const EndpointNameSchema = Schema.declare(
  (u: unknown): u is EndpointName => typeof u === 'string' && endpointNames.has(u), { expected: 'an endpoint of the catalogue' })

// ---- arguments ----

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
export const TabHolds = Schema.Struct({
  /** the worker generation the tab's state came from; null on a fresh tab. */
  generation: Schema.NullOr(Schema.String),
  /**
   * The tab's state (null on a fresh tab). A worker that died before persisting its last events (Android may kill it
   * at any time) is replaced by one that recovers from this what it can (worker/events/recovery.ts).
   */
  state: Schema.NullOr(SharedState),
})
export type TabHolds = typeof TabHolds.Type

/** A plain-text password as typed: the core encrypts it (worker/session/password.ts); the tab never does. */
const PlainPassword = Text(128)

export const LoginInput = Schema.Struct({
  phone: AccountText,
  password: PlainPassword,
  invitationUserName: Schema.optional(Schema.NullOr(AccountText)),
})
export type LoginInput = typeof LoginInput.Type

/** SMS-code sign-in: quick login, or registration when a password is given; either way the user is then logged in. */
export const CodeLoginInput = Schema.Struct({
  phone: AccountText,
  code: CodeText,
  inviteCode: Schema.optional(Schema.NullOr(AccountText)),
  /** registration: the new password in plain text (the core encrypts it like the login password). */
  password: Schema.optional(Schema.NullOr(PlainPassword)),
})
export type CodeLoginInput = typeof CodeLoginInput.Type

/** Forgotten password: the SMS code and the new password in plain text (the core encrypts it, then passwordBackNew). */
export const ResetPasswordInput = Schema.Struct({ phone: AccountText, code: CodeText, password: PlainPassword })
export type ResetPasswordInput = typeof ResetPasswordInput.Type

export const OpenStreamInput = Schema.Struct({
  cardId: Schema.Int.check(Schema.isGreaterThan(0)),
  cardToken: Schema.String,
  preset: StreamPresetSchema,
  audio: Schema.Boolean,
})

const TabWritableKey = Schema.Literals(TAB_WRITABLE_KEYS)

/** A group command as a tab asks for it (worker/group/group-ledger.ts). */
export const GroupCommandInput = Schema.Struct({
  /** a UUID made by the tab (crypto.randomUUID): the server applies a command once per phone by it. */
  id: Schema.String.check(Schema.isPattern(GROUP_COMMAND_ID)),
  action: Schema.Literals(GROUP_ACTIONS),
  userCardIds: Schema.Array(Schema.Int.check(Schema.isGreaterThan(0))).check(Schema.isMaxLength(100)),
  text: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isMaxLength(GROUP_TEXT_MAX)))),
  fileId: Schema.optional(Schema.NullOr(Schema.Int.check(Schema.isGreaterThan(0)))),
  fileName: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isMaxLength(255)))),
  /** the command whose failed phones this one retries (重试失败项). */
  retryOf: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isMaxLength(36)))),
})
export type GroupCommandInput = typeof GroupCommandInput.Type

// ---- answers ----

/** What `attach` answers: the replay rule of the catalogue this worker serves. */
export const Attached = Schema.Struct({
  /** the catalogue's endpoints that are safe to send again (Endpoint.repeatable): the tab's replay rule on a death. */
  repeatable: Schema.Array(EndpointNameSchema),
  /** the endpoints whose failure is silent (Endpoint.silentFailure): an "outcome unknown" of theirs is silent too. */
  silent: Schema.Array(EndpointNameSchema),
  /** the keyed writes (Endpoint.idempotent): sent again with their key after a death, like a repeatable call. */
  keyed: Schema.Array(EndpointNameSchema),
})
export type Attached = typeof Attached.Type

/** The recent event log with its base snapshot, for a bug report (tokens and phone numbers redacted). */
export const EventLogExport = Schema.Struct({
  kind: Schema.Literal('cloud-phone-event-log'),
  version: Schema.Literal(1),
  exportedAt: Schema.Number,
  /** the state before the first event; replaying the events onto it through the projection gives `head`. */
  base: SharedState,
  events: Schema.Array(Schema.Struct({ seq: Seq, event: StateEvent })),
  head: SharedState,
})
export type EventLogExport = typeof EventLogExport.Type

const StreamStats = Schema.Struct({
  socketsOpened: Schema.Number, phonesOpen: Schema.Number, socketOpen: Schema.Boolean, thumbsOpen: Schema.Number,
})

// ---- the catalogue of commands ----

export interface Command<Req extends Schema.Top = Schema.Top, Res extends Schema.Top = Schema.Top> {
  /** the arguments, as a tuple. */
  readonly request: Req
  readonly result: Res
}
const command = <Req extends Schema.Top, Res extends Schema.Top>(request: Req, result: Res): Command<Req, Res> => ({ request, result })
const none = Schema.Tuple([])

export const commands = {
  /** First on every link: the tab's hello, what it holds, and the port the core posts DownBatch values on. */
  attach: command(Schema.Tuple([TabHello, TabHolds, Port]), Attached),
  /**
   * The name of the Web Lock this worker holds for its lifetime (null without Web Locks), answered as soon as it is
   * held, without waiting for the core to start: a tab that waits on it learns of the worker's death (issue 21).
   */
  lifeLock: command(none, Schema.NullOr(Schema.String)),
  detach: command(none, Schema.Void),
  login: command(Schema.Tuple([LoginInput]), Reply(UserInfo)),
  /** Quick login (or registration) with an SMS code; logged in exactly like `login`. */
  loginWithCode: command(Schema.Tuple([CodeLoginInput]), Reply(UserInfo)),
  /** Forgotten password: the core fetches the public key, encrypts and sends passwordBackNew; no session changes. */
  resetPassword: command(Schema.Tuple([ResetPasswordInput]), Reply(Schema.Union([Schema.Null, Schema.Literal(false)]))),
  /** Re-reads personalInfo into dataInfo and phone and tells every tab (after binding a phone, say). */
  refreshSession: command(none, Reply(UserInfo)),
  /** A logout the user asked for: visit log operationType 2, then the exit action. */
  logout: command(none, Ack),
  /**
   * An endpoint of the catalogue by name, with its payload (decoded with the endpoint's request schema). The schema
   * here is the shape every call shares; the precise payload and data types per endpoint are `CallArgs` / `CallReply`.
   */
  // the third element is the idempotency key the tab makes for every call (used for the catalogue's keyed writes,
  // issue 40): the same call sent again after a worker's death carries the same key
  call: command(Schema.Tuple([EndpointNameSchema, Schema.optionalKey(Schema.Unknown), Schema.optionalKey(IdempotencyKeySchema)]), Reply(Schema.Unknown)),
  refreshDevices: command(none, Reply(Schema.Array(Device))),
  /** Loads the meal types again (a purchase screen that finds none); every tab gets them as state. */
  loadMealTypes: command(none, Reply(Schema.Array(MealTypeGroup))),
  reportRoute: command(Schema.Tuple([TabRoute]), Schema.Void),
  reportVisibility: command(Schema.Tuple([Schema.Boolean]), Schema.Void),
  /**
   * The browser's `online` event in this tab, which Chromium fires in no worker scope (decisions.md): the push socket
   * starts a fresh reconnect cycle if its last one was spent.
   */
  reportOnline: command(none, Schema.Void),
  getLocal: command(Schema.Tuple([TabWritableKey]), Schema.NullOr(Schema.String)),
  setLocal: command(Schema.Tuple([TabWritableKey, Schema.NullOr(Schema.String.check(Schema.isMaxLength(4096)))]), Schema.Void),
  /** The home's 列表 / 宫格 view and columns, for every tab (shared state, kept across an exit). */
  setHomeView: command(Schema.Tuple([HomeView]), Ack),
  ping: command(none, Schema.Literal('pong')),
  /** The maintenance modal's confirm: runs the exit action unless the calling tab is on the login page (§8). */
  exitFromMaintenance: command(none, Ack),
  /** The recent event log and its base snapshot, redacted, for a bug report (settings screen). */
  exportLog: command(none, EventLogExport),
  /**
   * Shows a phone's stream in this tab: the core posts video/audio bytes on `decoder` (a port of the tab's decoder
   * worker) and status/device messages on `control`, and takes input from `control`. Answers the viewer id.
   */
  openStream: command(Schema.Tuple([OpenStreamInput, Port, Port]), Schema.Number),
  closeStream: command(Schema.Tuple([Schema.Number]), Schema.Void),
  /**
   * The home's wall in this tab: `port` carries TabToWall up (the cards whose tiles are on screen, card tokens) and
   * WallToTab down (stills, ended thumbnails, token requests); every tab's walls share the core's one stream socket.
   */
  openWall: command(Schema.Tuple([Port]), Schema.Number),
  closeWall: command(Schema.Tuple([Schema.Number]), Schema.Void),
  /** Test/bench only: the stream sockets this core opened so far and the phones open on the server now. */
  streamStats: command(none, StreamStats),
  /**
   * Group control (issue 23): records the command in the ledger (the projection's `group` slice) and sends it until
   * every phone has an answer; answers once it is recorded. The id is the tab's UUID: asking again is the same command.
   */
  groupCommand: command(Schema.Tuple([GroupCommandInput]), Reply(Schema.Struct({ id: Schema.String }))),
} as const satisfies Record<string, Command>

export type Commands = typeof commands
export type CommandName = keyof Commands

// ---- the types both sides use, derived from the table ----

/** A call's outcome as a plain value, inside the core (the tab gets it as a Reply, with `seq`). */
export type CallResult<A> =
  | { readonly ok: true; readonly data: A }
  | { readonly ok: false; readonly status: number; readonly msg: string; readonly silent: boolean }

/** What a state-changing command answers: its outcome, and the log head it left (see `CoreClient.reached`). */
export type Reply<A> = CallResult<A> & { readonly seq: number }

/** The data of a call by endpoint: the response schema's type, or false when the server sent empty data (§7). */
export type DataOf<N extends EndpointName> = ResponseOf<Catalogue[N]> | false
/** A call's answer, typed by its endpoint in the catalogue. */
export type CallReply<N extends EndpointName> = Reply<DataOf<N>>
/** The payload of a call; endpoints whose request is empty may be called without one. */
export type CallArgs<N extends EndpointName> = {} extends RequestOf<Catalogue[N]>
  ? [payload?: RequestOf<Catalogue[N]>]
  : [payload: RequestOf<Catalogue[N]>]

type ArgsOf<C extends Command> = C['request']['Type'] extends ReadonlyArray<unknown> ? [...C['request']['Type']] : never
type Fn<C extends Command> = (...args: ArgsOf<C>) => Promise<C['result']['Type']>

/**
 * The core's API, one instance per connected port, derived from `commands`: `attach` must be called first, with a
 * MessagePort on which the core posts DownBatch values (transferred with Comlink.transfer) and the tab posts UpMessage
 * values. `call` is generic over the endpoint catalogue.
 */
export type CoreApi = { readonly [K in Exclude<CommandName, 'call'>]: Fn<Commands[K]> } & {
  readonly call: <N extends EndpointName>(name: N, ...payload: CallArgs<N>) => Promise<CallReply<N>>
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
