// Starts fibers that outlive the call that caused them (delayed toasts, redirects, socket callbacks, the maintenance
// poll). They belong to the core's scope: closing the core interrupts them all. They run on the core's own context so
// that a test clock governs their timers too.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as FiberSet from 'effect/FiberSet'
import * as Layer from 'effect/Layer'
import type * as Fiber from 'effect/Fiber'

export interface BackgroundShape {
  readonly run: <A>(effect: Effect.Effect<A>) => Fiber.Fiber<A>
}

export class Background extends Context.Service<Background, BackgroundShape>()('cloud-phone/Background') {
  static readonly layer = Layer.effect(
    Background,
    Effect.map(FiberSet.makeRuntime<never, unknown, never>(), (fork) => ({ run: (effect) => fork(effect) as never })),
  )
}
