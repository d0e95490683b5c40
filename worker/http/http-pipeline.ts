// Every HTTP call of the core: build, fetch with the 60 s timeout, classify (§7, §8), then act on the outcome:
// toasts go to the calling tab, session-ending codes exit once, and the caller always gets a plain CallResult.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import * as Option from 'effect/Option'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import type { CallResult } from '../protocol/commands.ts'
import type { Endpoint } from '../protocol/endpoint.ts'
import { Background } from '../runtime/background.ts'
import { ExitAction } from '../session/exit-action.ts'
import { SessionState } from '../session/session-state.ts'
import { Fetcher } from './fetcher.ts'
import { buildRequest } from './request.ts'
import { classifyResponse, parseBody, transportFailure, type Outcome } from './response-rules.ts'

export interface CallContext {
  /** the tab that made the call (its toasts go there); null for the core's own calls (toasts go to every tab). */
  readonly tabId: string | null
  readonly channelCode: string | null
  /** failures stay silent (maintenance check, meal list): no message toast. Session-ending codes still exit. */
  readonly quiet?: boolean
}

export const coreCall: CallContext = { tabId: null, channelCode: null }

export interface HttpPipelineShape {
  /** `data` is false when the server sent empty data (§7). */
  readonly call: <E extends Endpoint>(endpoint: E, payload: unknown, ctx: CallContext) => Effect.Effect<CallResult<E['response']['Type'] | false>>
}

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

      const send = (endpoint: Endpoint, payload: unknown, ctx: CallContext, token: string | null) => {
        const { url, init } = buildRequest(config.apiBaseUrl, endpoint, payload, { token, channelCode: ctx.channelCode })
        return Effect.tryPromise({
          try: (signal) => fetchFn(url, { ...init, signal }).then(async (r) => ({ status: r.status, text: await r.text() })),
          catch: () => 'network' as const,
        }).pipe(
          // timeoutOption, not timeout: a timeout is a transport failure like any other, and it spares the bundle
          // Effect's TimeoutError and duration formatting
          Effect.timeoutOption(config.requestTimeoutMs),
          Effect.map((r): Outcome =>
            Option.isSome(r) ? classifyResponse(endpoint, r.value.status, parseBody(r.value.text)) : transportFailure(endpoint)),
          Effect.orElseSucceed(() => transportFailure(endpoint)),
        )
      }

      const call = <E extends Endpoint>(endpoint: E, payload: unknown, ctx: CallContext) =>
        Effect.gen(function* () {
          const { token, epoch } = session.current()
          const outcome = yield* send(endpoint, payload, ctx, token)
          const toastTo = ctx.tabId ?? 'all'
          switch (outcome.kind) {
            case 'ok':
              return { ok: true, data: outcome.data } as CallResult<E['response']['Type'] | false>
            case 'silent':
              return { ok: false, status: outcome.status, msg: '', silent: true } as const
            case 'fatal':
              exit.fatal(epoch, outcome.text, outcome.delayed ? config.elsewhereToastDelayMs : 0, toastTo)
              return { ok: false, status: outcome.status, msg: outcome.text, silent: false } as const
            case 'fail':
              if (outcome.toast && ctx.quiet !== true) {
                background.run(Effect.sleep(config.errorToastDelayMs).pipe(
                  Effect.andThen(Effect.sync(() => hub.emit({ _tag: 'ShowToast', text: outcome.msg, delayMs: 0 }, toastTo))),
                ))
              }
              return { ok: false, status: outcome.status, msg: outcome.msg, silent: false } as const
          }
        })

      return { call }
    }),
  )
}
