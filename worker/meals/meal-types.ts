// Loads the meal types at startup when a token exists (and after login), groups them, caches and publishes them.
// A failure is silently ignored (§8).
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline } from '../http/http-pipeline.ts'
import { catalogue } from '../protocol/catalogue.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { Storage } from '../storage/storage.ts'
import { groupMealTypes } from './meal-groups.ts'

export class MealTypes extends Context.Service<MealTypes, { readonly load: Effect.Effect<void> }>()('cloud-phone/MealTypes') {
  static readonly layer = Layer.effect(
    MealTypes,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const storage = yield* Storage
      const load = Effect.gen(function* () {
        const result = yield* http.call(catalogue.mealTypeList, {}, { ...coreCall, quiet: true })
        if (!result.ok) return
        const groups = groupMealTypes(result.data === false ? [] : result.data)
        yield* storage.set(StorageKey.mealTypesCache, groups)
        yield* hub.publish({ _tag: 'MealTypesLoaded', groups })
      })
      return { load }
    }),
  )
}
