// Live Storage over IndexedDB (idb): the spec's keys, the event log (seq-keyed) and the persisted projection, each in
// its own object store so that the key-value store holds exactly the spec's keys. If IndexedDB cannot be opened
// (private modes, quota), the core keeps working in memory for this session.
import { openDB, type IDBPDatabase } from 'idb'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { makeMemoryStorage, Storage, type LoggedEvent, type PersistedState, type StorageShape } from './storage.ts'

const KV = 'kv'
const LOG = 'eventLog'
const STATE = 'projection'
const STATE_KEY = 'current'

const makeIdbStorage = (db: IDBPDatabase): StorageShape => {
  // an IndexedDB failure after open is reported as a defect-free no-op: the core must not crash on a storage hiccup.
  const run = <A>(f: () => Promise<A>, fallback: A) => Effect.promise(() => f().catch(() => fallback))
  return {
    get: (key) => run(async () => (await db.get(KV, key)) ?? null, null),
    set: (key, value) => run(() => db.put(KV, value, key).then(() => undefined), undefined),
    remove: (key) => run(() => db.delete(KV, key), undefined),
    keys: () => run(async () => (await db.getAllKeys(KV)).map(String), [] as Array<string>),
    clearExcept: (keep) => run(async () => {
      const tx = db.transaction(KV, 'readwrite')
      for (const key of await tx.store.getAllKeys()) if (!keep.includes(String(key) as never)) await tx.store.delete(key)
      await tx.done
    }, undefined),
    commit: (c) => run(async () => {
      const tx = db.transaction([KV, LOG, STATE], 'readwrite')
      const kv = tx.objectStore(KV)
      const log = tx.objectStore(LOG)
      const writes: Array<Promise<unknown>> = []
      if (c.clearExcept !== null) {
        const keep = c.clearExcept as ReadonlyArray<string>
        for (const key of await kv.getAllKeys()) if (!keep.includes(String(key))) writes.push(kv.delete(key))
        writes.push(log.clear())
      }
      // requests of one transaction run in order; waiting once at the end keeps a big batch to one round trip
      for (const entry of c.entries) writes.push(log.put(entry))
      const last = c.entries.length === 0 ? null : c.entries[c.entries.length - 1].seq
      if (last !== null && last - c.limit >= 0) writes.push(log.delete(IDBKeyRange.upperBound(last - c.limit)))
      writes.push(tx.objectStore(STATE).put(c.persisted, STATE_KEY))
      for (const [key, value] of c.keys) writes.push(kv.put(value, key))
      await Promise.all([...writes, tx.done])
    }, undefined),
    readLog: () => run(() => db.getAll(LOG) as Promise<Array<LoggedEvent>>, [] as Array<LoggedEvent>),
    readPersisted: () => run(async () => ((await db.get(STATE, STATE_KEY)) as PersistedState | undefined) ?? null, null),
  }
}

export const IdbStorageLive = Layer.effect(
  Storage,
  Effect.gen(function* () {
    const { dbName } = yield* CoreConfig
    const db = yield* Effect.promise(() =>
      openDB(dbName, 2, {
        upgrade(d, oldVersion) {
          if (oldVersion < 1) {
            d.createObjectStore(KV)
            d.createObjectStore(LOG, { keyPath: 'seq' })
          }
          if (oldVersion < 2) d.createObjectStore(STATE)
        },
      }).catch(() => null),
    )
    return db === null ? makeMemoryStorage() : makeIdbStorage(db)
  }),
)
