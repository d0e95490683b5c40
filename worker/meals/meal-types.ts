// Loads the meal types at startup when a token exists (and after login), groups them and publishes them (persisted
// with the projection). A failure is silently ignored (§8).
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline } from '../http/http-pipeline.ts'
import { SessionState } from '../session/session-state.ts'
import { groupMealTypes } from './meal-groups.ts'

export class MealTypes extends Context.Service<MealTypes, { readonly load: Effect.Effect<void> }>()('cloud-phone/MealTypes') {
  static readonly layer = Layer.effect(
    MealTypes,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const session = yield* SessionState
      const load = Effect.gen(function* () {
        const { epoch } = session.current()
        const list = yield* http.request('mealTypeList', {}, { ...coreCall, quiet: true })
        hub.publish({ _tag: 'MealTypesLoaded', groups: groupMealTypes(list === false ? [] : list) }, epoch)
      }).pipe(Effect.ignore)
      return { load }
    }),
  )
}
