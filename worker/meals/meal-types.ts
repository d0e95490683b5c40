// Loads the meal types, groups them and publishes them (persisted with the projection): at startup when a token exists
// and after login, where a failure is silent (§8), and again when a screen that needs them finds none (a startup load
// that failed would otherwise leave the purchase screens empty until the next launch).
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { HttpPipeline, toCallResult, type CallContext } from '../http/http-pipeline.ts'
import type { CallResult } from '../protocol/commands.ts'
import type { MealTypeGroup } from '../protocol/pay.ts'
import { SessionState } from '../session/session-state.ts'
import { groupMealTypes } from './meal-groups.ts'

export interface MealTypesShape {
  /** the launch and login load (the core's start for every tab: coreCall; a sign-in: that tab's): failures are ignored. */
  readonly load: (ctx: CallContext) => Effect.Effect<void>
  /** a screen's load: its outcome is answered to the screen, failures still without a toast (§8). */
  readonly reload: (ctx: CallContext) => Effect.Effect<CallResult<ReadonlyArray<MealTypeGroup>>>
}

export class MealTypes extends Context.Service<MealTypes, MealTypesShape>()('cloud-phone/MealTypes') {
  static readonly layer = Layer.effect(
    MealTypes,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const session = yield* SessionState
      const fetchGroups = (ctx: CallContext) => Effect.gen(function* () {
        const { epoch } = session.current()
        const list = yield* http.request('mealTypeList', {}, { ...ctx, quiet: true })
        const groups = groupMealTypes(list === false ? [] : list)
        hub.publish({ _tag: 'MealTypesLoaded', groups }, epoch)
        return groups
      })
      return {
        load: (ctx) => fetchGroups(ctx).pipe(Effect.ignore),
        reload: (ctx) => toCallResult(fetchGroups(ctx)),
      }
    }),
  )
}
