// First launch (no isUpdate): clear everything except the two kept keys, then set isUpdate (§4, decisions.md). And on
// every start, the merchant sign every request carries is stored (§3 lists the key; an exit keeps it).
import * as Effect from 'effect/Effect'
import { HEADER_MERCHANT_SIGN } from '../protocol/constants.ts'
import { KEPT_ON_FIRST_LAUNCH, StorageKey } from '../protocol/storage-keys.ts'
import type { StorageShape } from './storage.ts'

export const applyFirstLaunchRule = (storage: StorageShape): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    if ((yield* storage.get(StorageKey.isUpdate)) !== null) return false
    yield* storage.clearExcept(KEPT_ON_FIRST_LAUNCH)
    yield* storage.set(StorageKey.isUpdate, '1')
    return true
  })

export const storeMerchantSign = (storage: StorageShape): Effect.Effect<void> =>
  Effect.gen(function* () {
    if ((yield* storage.get(StorageKey.merchantSign)) !== HEADER_MERCHANT_SIGN) yield* storage.set(StorageKey.merchantSign, HEADER_MERCHANT_SIGN)
  })
