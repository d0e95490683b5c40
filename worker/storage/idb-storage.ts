// Live Storage over IndexedDB (idb): a key-value store for the spec's keys and a seq-keyed store for the event log.
// If IndexedDB cannot be opened (private modes, quota), the core keeps working in memory for this session.
import { openDB, type IDBPDatabase } from 'idb'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { makeMemoryStorage, Storage, type LoggedEvent, type StorageShape } from './storage.ts'

const KV = 'kv'
const LOG = 'eventLog'

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
    appendLog: (entries, limit) => run(async () => {
      const tx = db.transaction(LOG, 'readwrite')
      for (const entry of entries) await tx.store.put(entry)
      const count = await tx.store.count()
      if (count > limit) {
        let cursor = await tx.store.openCursor()
        for (let extra = count - limit; cursor && extra > 0; extra--) {
          await cursor.delete()
          cursor = await cursor.continue()
        }
      }
      await tx.done
    }, undefined),
    readLog: () => run(() => db.getAll(LOG) as Promise<Array<LoggedEvent>>, [] as Array<LoggedEvent>),
  }
}

export const IdbStorageLive = Layer.effect(
  Storage,
  Effect.gen(function* () {
    const { dbName } = yield* CoreConfig
    const db = yield* Effect.promise(() =>
      openDB(dbName, 1, {
        upgrade(d) {
          d.createObjectStore(KV)
          d.createObjectStore(LOG, { keyPath: 'seq' })
        },
      }).catch(() => null),
    )
    return db === null ? makeMemoryStorage() : makeIdbStorage(db)
  }),
)
