// The spec's "local storage" (§3) and the event log, as one service; the live layer (idb-storage.ts) is the only
// code touching IndexedDB, the test layer keeps everything in memory.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import type { StorageKey } from '../protocol/storage-keys.ts'
import type { StateEvent } from '../protocol/events.ts'

export interface LoggedEvent {
  readonly seq: number
  readonly event: StateEvent
}

export interface StorageShape {
  readonly get: (key: StorageKey) => Effect.Effect<unknown>
  readonly set: (key: StorageKey, value: unknown) => Effect.Effect<void>
  readonly remove: (key: StorageKey) => Effect.Effect<void>
  readonly keys: () => Effect.Effect<ReadonlyArray<string>>
  /** removes every key not listed (first launch, exit action). */
  readonly clearExcept: (keep: ReadonlyArray<StorageKey>) => Effect.Effect<void>
  /** appends to the event log and trims it to the newest `limit` entries. */
  readonly appendLog: (entries: ReadonlyArray<LoggedEvent>, limit: number) => Effect.Effect<void>
  readonly readLog: () => Effect.Effect<ReadonlyArray<LoggedEvent>>
}

export const makeMemoryStorage = (
  initial: Record<string, unknown> = {}, initialLog: ReadonlyArray<LoggedEvent> = [],
): StorageShape & { readonly dump: () => Record<string, unknown> } => {
  const kv = new Map<string, unknown>(Object.entries(initial))
  let log: Array<LoggedEvent> = [...initialLog]
  return {
    get: (key) => Effect.sync(() => kv.get(key) ?? null),
    set: (key, value) => Effect.sync(() => void kv.set(key, value)),
    remove: (key) => Effect.sync(() => void kv.delete(key)),
    keys: () => Effect.sync(() => [...kv.keys()]),
    clearExcept: (keep) => Effect.sync(() => {
      for (const key of [...kv.keys()]) if (!keep.includes(key as StorageKey)) kv.delete(key)
    }),
    appendLog: (entries, limit) => Effect.sync(() => {
      log = [...log, ...entries].slice(-limit)
    }),
    readLog: () => Effect.sync(() => log),
    dump: () => Object.fromEntries(kv),
  }
}

export class Storage extends Context.Service<Storage, StorageShape>()('cloud-phone/Storage') {
  static readonly layerTest = (initial: Record<string, unknown> = {}, log: ReadonlyArray<LoggedEvent> = []) =>
    Layer.sync(Storage, () => makeMemoryStorage(initial, log))
}

/** Typed readers over the untyped store. */
export const getString = (storage: StorageShape, key: StorageKey): Effect.Effect<string | null> =>
  Effect.map(storage.get(key), (v) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null))
