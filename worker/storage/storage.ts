// The spec's "local storage" (§3) and the persisted projection, as one service; the live layer
// (idb-storage.ts) is the only code touching IndexedDB, the test layer keeps everything in memory.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import type { Snapshot } from '../protocol/commands.ts'
import type { StorageKey } from '../protocol/storage-keys.ts'

/** The projection as last written, with the worker generation that wrote it (a reload paints from it). */
export interface PersistedState {
  readonly generation: string
  readonly state: Snapshot
}

/**
 * One write of the projection and the spec's keys derived from it, in one transaction so that what survives a killed
 * worker is a state and keys that go together.
 */
export interface SnapshotCommit {
  readonly persisted: PersistedState
  /** the exit action (§4): first remove every key but these. */
  readonly clearExcept: ReadonlyArray<StorageKey> | null
  /** spec keys written with the commit (cardCouponPush). */
  readonly keys: ReadonlyArray<readonly [StorageKey, unknown]>
}

export interface StorageShape {
  readonly get: (key: StorageKey) => Effect.Effect<unknown>
  readonly set: (key: StorageKey, value: unknown) => Effect.Effect<void>
  readonly remove: (key: StorageKey) => Effect.Effect<void>
  readonly keys: () => Effect.Effect<ReadonlyArray<string>>
  /** removes every key not listed (first launch). */
  readonly clearExcept: (keep: ReadonlyArray<StorageKey>) => Effect.Effect<void>
  readonly commit: (commit: SnapshotCommit) => Effect.Effect<void>
  /** what was stored, as stored: decoded by the one reader (worker/api/boundary.ts readPersisted). */
  readonly readPersisted: () => Effect.Effect<unknown>
}

export const makeMemoryStorage = (
  initial: Record<string, unknown> = {}, initialState: PersistedState | null = null,
): StorageShape & { readonly dump: () => Record<string, unknown> } => {
  const kv = new Map<string, unknown>(Object.entries(initial))
  let persisted = initialState
  const clearExcept = (keep: ReadonlyArray<StorageKey>) => {
    for (const key of [...kv.keys()]) if (!keep.includes(key as StorageKey)) kv.delete(key)
  }
  return {
    get: (key) => Effect.sync(() => kv.get(key) ?? null),
    set: (key, value) => Effect.sync(() => void kv.set(key, value)),
    remove: (key) => Effect.sync(() => void kv.delete(key)),
    keys: () => Effect.sync(() => [...kv.keys()]),
    clearExcept: (keep) => Effect.sync(() => clearExcept(keep)),
    commit: (c) => Effect.sync(() => {
      if (c.clearExcept !== null) clearExcept(c.clearExcept)
      persisted = c.persisted
      for (const [key, value] of c.keys) kv.set(key, value)
    }),
    readPersisted: () => Effect.sync(() => persisted),
    dump: () => Object.fromEntries(kv),
  }
}

export class Storage extends Context.Service<Storage, StorageShape>()('cloud-phone/Storage') {
  static readonly layerTest = (initial: Record<string, unknown> = {}, state: PersistedState | null = null) =>
    Layer.sync(Storage, () => makeMemoryStorage(initial, state))
}

/** Typed readers over the untyped store. */
export const getString = (storage: StorageShape, key: StorageKey): Effect.Effect<string | null> =>
  Effect.map(storage.get(key), (v) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null))
