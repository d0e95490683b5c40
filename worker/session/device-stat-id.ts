// The per-browser UUID (decisions.md): push deviceId, visit-log uuid and "device stat id", created once, kept on exit.
import * as Effect from 'effect/Effect'
import { StorageKey } from '../protocol/storage-keys.ts'
import { getString, type StorageShape } from '../storage/storage.ts'

export const ensureDeviceStatId = (storage: StorageShape): Effect.Effect<string> =>
  Effect.gen(function* () {
    const existing = yield* getString(storage, StorageKey.deviceStatId)
    if (existing !== null && existing !== '') return existing
    const id = crypto.randomUUID()
    yield* storage.set(StorageKey.deviceStatId, id)
    return id
  })
