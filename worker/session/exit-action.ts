// The exit action (§4): end the session (which closes the push socket), clear storage but the four kept keys, tell
// every tab, then send them to login after 500 ms unless told not to. `fatal` is the once-only path for error codes.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import { LOGIN_PATH } from '../protocol/constants.ts'
import { KEPT_ON_EXIT } from '../protocol/storage-keys.ts'
import { Background } from '../runtime/background.ts'
import { Storage } from '../storage/storage.ts'
import { SessionState } from './session-state.ts'

export interface ExitActionShape {
  readonly run: (options: { readonly redirect: boolean }) => Effect.Effect<void>
  /**
   * A session-ending failure of a call made in `epoch`: only the first one per session toasts and exits, however
   * many calls fail together. The toast goes to `toastTo` after `toastDelayMs`, then the exit runs.
   */
  readonly fatal: (epoch: number, text: string, toastDelayMs: number, toastTo: string | 'all') => boolean
}

export class ExitAction extends Context.Service<ExitAction, ExitActionShape>()('cloud-phone/ExitAction') {
  static readonly layer = Layer.effect(
    ExitAction,
    Effect.gen(function* () {
      const session = yield* SessionState
      const storage = yield* Storage
      const hub = yield* EventHub
      const background = yield* Background
      const config = yield* CoreConfig

      const run = ({ redirect }: { readonly redirect: boolean }) =>
        Effect.gen(function* () {
          session.set(null, null)
          yield* storage.clearExcept(KEPT_ON_EXIT)
          yield* hub.publish({ _tag: 'SessionChanged', loggedIn: false, user: null, phone: null })
          if (redirect) {
            background.run(
              Effect.sleep(config.exitRedirectDelayMs).pipe(
                Effect.andThen(Effect.sync(() =>
                  hub.emit({ _tag: 'NavigateTo', to: LOGIN_PATH, replace: true, delayMs: 0 }, 'all'))),
              ),
            )
          }
        })

      const fatal = (epoch: number, text: string, toastDelayMs: number, toastTo: string | 'all') => {
        if (!session.claimExit(epoch)) return false
        background.run(
          Effect.gen(function* () {
            if (toastDelayMs > 0) yield* Effect.sleep(toastDelayMs)
            hub.emit({ _tag: 'ShowToast', text, delayMs: 0 }, toastTo)
            yield* run({ redirect: true })
          }),
        )
        return true
      }

      return { run, fatal }
    }),
  )
}
