// Starts fibers that outlive the call that caused them (delayed toasts, redirects, socket callbacks), on the
// core's own context so that a test clock governs their timers too.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import type * as Fiber from 'effect/Fiber'

export interface BackgroundShape {
  readonly run: (effect: Effect.Effect<void>) => Fiber.Fiber<void>
}

export class Background extends Context.Service<Background, BackgroundShape>()('cloud-phone/Background') {
  static readonly layer = Layer.effect(
    Background,
    Effect.gen(function* () {
      const context = yield* Effect.context<never>()
      const fork = Effect.runForkWith(context)
      return { run: (effect) => fork(effect) }
    }),
  )
}
