// Builds one core from a layer in its own scope: storage rules first, then the launch requests; returns the runner
// commands use, and `close`, which ends the scope and with it every background fiber.
import * as Effect from 'effect/Effect'
import * as Exit from 'effect/Exit'
import * as Layer from 'effect/Layer'
import * as Scope from 'effect/Scope'
import { launchCore, prepareStorage } from '../runtime/startup.ts'
import type { CoreServices, RunCore } from './core-api.ts'

export const startCore = async (layer: Layer.Layer<CoreServices>): Promise<{ run: RunCore; close: () => Promise<void> }> => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const run: RunCore = (effect) => Effect.runPromiseWith(context)(effect)
  await run(prepareStorage)
  await run(launchCore)
  return { run, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
