// First launch (no isUpdate): clear everything except the two kept keys, then set isUpdate (§4, decisions.md).
import * as Effect from 'effect/Effect'
import { KEPT_ON_FIRST_LAUNCH, StorageKey } from '../protocol/storage-keys.ts'
import type { StorageShape } from './storage.ts'

export const applyFirstLaunchRule = (storage: StorageShape): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    if ((yield* storage.get(StorageKey.isUpdate)) !== null) return false
    yield* storage.clearExcept(KEPT_ON_FIRST_LAUNCH)
    yield* storage.set(StorageKey.isUpdate, '1')
    return true
  })
