// The exit action (§4): end the session (which closes the push socket), tell every tab at once (SessionEnded: the one
// projection drops the account's state, and every tab shows why), clear storage but the kept keys together with the
// log, then send tabs to login after 500 ms unless it is a forced exit. `fatal` is the once-only path of error codes.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import { LOGIN_PATH } from '../protocol/constants.ts'
import { Background } from '../runtime/background.ts'
import { SessionState } from './session-state.ts'

export interface ExitOptions {
  readonly redirect: boolean
  /** the toast every tab shows (a session-ending error); null for a logout the user asked for. */
  readonly reason?: string | null
  /** the forced-offline notice every tab shows in a modal. */
  readonly notice?: string | null
}

export interface ExitActionShape {
  readonly run: (options: ExitOptions) => Effect.Effect<void>
  /**
   * A session-ending failure of a call made in `epoch`: only the first one per session exits, however many calls fail
   * together; after `delayMs` every tab shows `text` and the exit runs. False if that session already ended.
   */
  readonly fatal: (epoch: number, text: string, delayMs: number) => boolean
  /** ends the session of `epoch` unless something else already did (a logout whose visit log met a 401). */
  readonly runOnce: (epoch: number, options: ExitOptions) => Effect.Effect<boolean>
}

export class ExitAction extends Context.Service<ExitAction, ExitActionShape>()('cloud-phone/ExitAction') {
  static readonly layer = Layer.effect(
    ExitAction,
    Effect.gen(function* () {
      const session = yield* SessionState
      const hub = yield* EventHub
      const background = yield* Background
      const config = yield* CoreConfig

      const run = (o: ExitOptions) =>
        Effect.gen(function* () {
          session.set(null, null)
          hub.publish({
            _tag: 'SessionEnded',
            end: { at: Date.now(), reason: o.reason ?? null, notice: o.notice ?? null, redirect: o.redirect },
          })
          yield* hub.clearAccount()
          if (o.redirect) {
            background.run(Effect.sleep(config.exitRedirectDelayMs).pipe(Effect.andThen(Effect.sync(() =>
              hub.emit({ _tag: 'NavigateTo', to: LOGIN_PATH, replace: true }, 'all')))))
          }
        })

      const runOnce = (epoch: number, o: ExitOptions) =>
        Effect.suspend(() => (session.claimExit(epoch) ? Effect.as(run(o), true) : Effect.succeed(false)))

      const fatal = (epoch: number, text: string, delayMs: number) => {
        if (!session.claimExit(epoch)) return false
        const claimed = session.current().epoch
        // a login during the delay (6013 waits 500 ms) is a new session: the exit was the old one's, and is dropped
        const stillOurs = Effect.suspend(() => (session.current().epoch === claimed ? run({ redirect: true, reason: text }) : Effect.void))
        background.run(Effect.andThen(delayMs > 0 ? Effect.sleep(delayMs) : Effect.void, stillOurs))
        return true
      }

      return { run, fatal, runOnce }
    }),
  )
}
