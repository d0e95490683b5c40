// Every HTTP call of the core: build, fetch with the 60 s timeout, classify (§7, §8), then act on the outcome: message
// toasts go to the calling tab, session-ending codes exit once for every tab, and a result that comes back after its
// session ended is dropped. Inside the core a failure is a CallFailed; tabs get a plain CallResult. Calls name their
// endpoint; the catalogue and its schemas are loaded with the first call (wire.ts).
import * as Context from 'effect/Context'
import * as Clock from 'effect/Clock'
import * as Effect from 'effect/Effect'
import * as Fiber from 'effect/Fiber'
import * as Layer from 'effect/Layer'
import * as Option from 'effect/Option'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import type { Catalogue, EndpointName } from '../protocol/catalogue.ts'
import type { CallResult, DataOf } from '../protocol/commands.ts'
import type { Endpoint, RequestOf } from '../protocol/endpoint.ts'
import { Background } from '../runtime/background.ts'
import { ExitAction } from '../session/exit-action.ts'
import { SessionState } from '../session/session-state.ts'
import { CallFailed } from './call-failed.ts'
import { Fetcher } from './fetcher.ts'
import { buildRequest } from './request.ts'
import { sendUntilSettled } from './keyed-write.ts'
import { loadWriteLog } from './write-log.ts'
import { Storage } from '../storage/storage.ts'
import { newIdempotencyKey } from '../protocol/idempotency.ts'
import type { Outcome } from './wire.ts'
import { core } from '../texts.ts'

type Wire = typeof import('./wire.ts')
let wire: Promise<Wire> | null = null
const startLoadingWire = () => (wire ??= import('./wire.ts'))
const loadWire = Effect.promise(startLoadingWire)

export interface CallContext {
  /** the tab that made the call (its toasts go there); null for the core's own calls (toasts go to every tab). */
  readonly tabId: string | null
  /**
   * sent as the channelCode header: the code of the tab the call is for (decisions.md: a tab's requests carry that
   * tab's code); null for the calls the core makes for every tab (its start, pushes, the maintenance poll).
   */
  readonly channelCode: string | null
  /** failures stay silent (maintenance check, meal list): no message toast. Session-ending codes still exit. */
  readonly quiet?: boolean
  /** the token of a session being ended (the logout visit log of a re-login); default: the current one. */
  readonly token?: string | null
  /** a keyed write's idempotency key, made by the tab so that it can send the call again after a death (issue 40). */
  readonly key?: string
}

export const coreCall: CallContext = { tabId: null, channelCode: null }

export type Data<N extends EndpointName> = DataOf<N>
export type Payload<N extends EndpointName> = RequestOf<Catalogue[N]>

export interface HttpPipelineShape {
  /** `false` when the server sent empty data (§7). */
  readonly request: <N extends EndpointName>(name: N, payload: Payload<N>, ctx: CallContext) => Effect.Effect<Data<N>, CallFailed>
  /**
   * A tab's call, answered as a plain value: the payload comes from another thread and is decoded with the endpoint's
   * request schema first (a payload that does not decode is refused without a request, with the schema's reason).
   */
  readonly call: (name: EndpointName, payload: unknown, ctx: CallContext) => Effect.Effect<CallResult<unknown>>
  /** sends again every keyed write the log holds for the signed-in account (the core's start). */
  readonly resumeWrites: Effect.Effect<void>
}

export const toCallResult = <A, R>(effect: Effect.Effect<A, CallFailed, R>): Effect.Effect<CallResult<A>, never, R> =>
  Effect.match(effect, {
    onSuccess: (data): CallResult<A> => ({ ok: true, data }),
    onFailure: (e): CallResult<A> => ({ ok: false, status: e.status, msg: e.msg, silent: e.silent }),
  })

export class HttpPipeline extends Context.Service<HttpPipeline, HttpPipelineShape>()('cloud-phone/HttpPipeline') {
  static readonly layer = Layer.effect(
    HttpPipeline,
    Effect.gen(function* () {
      const fetchFn = yield* Fetcher
      const config = yield* CoreConfig
      const session = yield* SessionState
      const exit = yield* ExitAction
      const hub = yield* EventHub
      const background = yield* Background
      // fetched while the worker hydrates and serves its first snapshot, so the first call rarely waits for it
      void startLoadingWire()

      const writes = yield* loadWriteLog(yield* Storage)

      const send = (w: Wire, endpoint: Endpoint, payload: unknown, ctx: CallContext, token: string | null, key?: { value: string; abandon: boolean }) => {
        const base = endpoint.host === 'maintenance' ? config.maintenanceBaseUrl : config.apiBaseUrl
        const { url, init } = buildRequest(base, endpoint, payload, { token, channelCode: ctx.channelCode, ...(key !== undefined ? { key } : {}) })
        return Effect.tryPromise({
          try: (signal) => fetchFn(url, { ...init, signal }).then(async (r) => ({ status: r.status, text: await r.text() })),
          catch: () => 'network' as const,
        }).pipe(
          // timeoutOption, not timeout: a timeout is a transport failure like any other, and it spares the bundle
          // Effect's TimeoutError and duration formatting
          Effect.timeoutOption(config.requestTimeoutMs),
          Effect.map((r): Outcome =>
            Option.isSome(r) ? w.classifyResponse(endpoint, r.value.status, w.parseBody(r.value.text)) : w.transportFailure(endpoint)),
          Effect.orElseSucceed(() => w.transportFailure(endpoint)),
        )
      }

      const request = <N extends EndpointName>(name: N, payload: Payload<N>, ctx: CallContext): Effect.Effect<Data<N>, CallFailed> =>
        Effect.gen(function* () {
          const { token: current, epoch } = session.current()
          const token = ctx.token === undefined ? current : ctx.token
          const w = yield* loadWire
          const endpoint = w.endpointOf(name)
          if (endpoint === undefined) return yield* new CallFailed({ status: 0, msg: core.serverError, silent: false })
          const keyed = endpoint.idempotent === true && token !== null && ctx.token === undefined
          const outcome = keyed ? yield* sendKeyed(w, endpoint, name, payload, ctx, token) : yield* send(w, endpoint, payload, ctx, token)
          // asked in a session that has since ended (or been replaced): neither stored nor shown (decisions.md)
          const stale = token !== null && ctx.token === undefined && session.current().epoch !== epoch
          if (stale && outcome.kind !== 'fatal') return yield* new CallFailed({ status: 0, msg: '', silent: true })
          switch (outcome.kind) {
            case 'ok':
              return outcome.data as Data<N>
            case 'silent':
              return yield* new CallFailed({ status: outcome.status, msg: '', silent: true })
            case 'fatal':
              // sent without a session (a visitor's call, or one a tab asked just as the exit ran): there is nothing
              // to end, and starting an exit here would tell every tab a second, different reason
              if (token === null) return yield* new CallFailed({ status: outcome.status, msg: outcome.text, silent: true })
              exit.fatal(epoch, outcome.text, outcome.delayed ? config.elsewhereToastDelayMs : 0)
              return yield* new CallFailed({ status: outcome.status, msg: outcome.text, silent: true })
            case 'fail':
              if (outcome.toast && ctx.quiet !== true) {
                const to = ctx.tabId ?? 'all'
                background.run(Effect.sleep(config.errorToastDelayMs).pipe(
                  Effect.andThen(Effect.sync(() => hub.emit({ _tag: 'ShowToast', text: outcome.msg }, to))),
                ))
              }
              return yield* new CallFailed({ status: outcome.status, msg: outcome.msg, silent: false })
          }
        })

      /** the keyed writes being sent by this core now, by key: a second call with the key (a tab's replay) joins it. */
      const inflight = new Map<string, Fiber.Fiber<Outcome>>()

      const sendKeyed = (w: Wire, endpoint: Endpoint, name: string, payload: unknown, ctx: CallContext, token: string) =>
        Effect.gen(function* () {
          const key = ctx.key ?? newIdempotencyKey()
          const joined = inflight.get(key)
          if (joined !== undefined) return (yield* Fiber.join(joined)) as Outcome
          const { epoch, username } = session.current()
          const issuedAt = yield* Clock.currentTimeMillis
          const run = sendUntilSettled({
            send: (abandon) => send(w, endpoint, payload, ctx, token, { value: key, abandon }),
            log: writes, sleep: Effect.sleep, now: Clock.currentTimeMillis,
            current: () => session.current().epoch === epoch,
            write: writes.get(key) ?? { key, username: username ?? '', name, payload, channelCode: ctx.channelCode, issuedAt, abandoning: false },
          })
          // it outlives the call that started it: a write is finished even when no tab waits for it any more
          const fiber = background.run(run.pipe(Effect.ensuring(Effect.sync(() => inflight.delete(key)))))
          inflight.set(key, fiber)
          const outcome = yield* Fiber.join(fiber)
          // a silent endpoint's write stays silent, "being confirmed" included
          return endpoint.silentFailure === true && outcome.kind === 'fail' ? { kind: 'silent', status: outcome.status } as const : outcome
        })

      const resumeWrites = Effect.gen(function* () {
        const { username, token } = session.current()
        if (token === null) return
        for (const write of writes.all()) {
          if (write.username !== username || inflight.has(write.key)) continue
          const ctx: CallContext = { tabId: null, channelCode: write.channelCode, key: write.key }
          background.run(Effect.gen(function* () {
            const result = yield* toCallResult(request(write.name as EndpointName, write.payload as never, ctx))
            // applied: said once to every tab (a failure the pipeline toasted already); what it changed reloads
            if (result.ok) hub.emit({ _tag: 'ShowToast', text: core.writeConfirmed }, 'all')
          }))
        }
      })

      const call = (name: EndpointName, payload: unknown, ctx: CallContext): Effect.Effect<CallResult<unknown>> =>
        Effect.gen(function* () {
          const w = yield* loadWire
          const decoded = w.decodePayload(name, payload ?? {})
          if (!decoded.ok) return { ok: false, status: 0, msg: core.invalidCommand(`call ${name}`, decoded.reason), silent: false }
          return yield* toCallResult(request(name, decoded.payload as Payload<typeof name>, ctx))
        })

      return { request, call, resumeWrites }
    }),
  )
}
