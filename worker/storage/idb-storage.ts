// Live Storage over IndexedDB (idb): the spec's keys and the persisted projection, each in its own object store so
// that the key-value store holds exactly the spec's keys. If IndexedDB cannot be opened (private modes, quota), the
// core keeps working in memory for this session.
import { openDB, unwrap, type IDBPDatabase } from 'idb'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { makeMemoryStorage, Storage, type PersistedState, type StorageShape } from './storage.ts'

const KV = 'kv'
/** the event log of versions 1-2 (written, never read); dropped in version 3. */
const OLD_LOG = 'eventLog'
const STATE = 'projection'
const STATE_KEY = 'current'

const makeIdbStorage = (db: IDBPDatabase): StorageShape => {
  // an IndexedDB failure after open is reported as a defect-free no-op: the core must not crash on a storage hiccup.
  const run = <A>(f: () => Promise<A>, fallback: A) => Effect.promise(() => f().catch(() => fallback))
  const raw = unwrap(db)
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
    // the hot write: plain requests on the transaction (no promise per request), waiting once for its completion
    commit: (c) => run(async () => {
      const tx = raw.transaction([KV, STATE], 'readwrite')
      const done = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve()
        tx.onerror = tx.onabort = () => reject(tx.error)
      })
      const kv = tx.objectStore(KV)
      if (c.clearExcept !== null) {
        const keep = c.clearExcept as ReadonlyArray<string>
        const keys = kv.getAllKeys()
        keys.onsuccess = () => {
          for (const key of keys.result) if (!keep.includes(String(key))) kv.delete(key)
          write()
        }
      } else write()
      function write() {
        tx.objectStore(STATE).put(c.persisted, STATE_KEY)
        for (const [key, value] of c.keys) kv.put(value, key)
      }
      await done
    }, undefined),
    readPersisted: () => run(async (): Promise<unknown> => (await db.get(STATE, STATE_KEY)) ?? null, null),
  }
}

export const IdbStorageLive = Layer.effect(
  Storage,
  Effect.gen(function* () {
    const { dbName } = yield* CoreConfig
    const db = yield* Effect.promise(() =>
      openDB(dbName, 3, {
        upgrade(d, oldVersion) {
          if (oldVersion < 1) d.createObjectStore(KV)
          if (oldVersion < 2) d.createObjectStore(STATE)
          if (d.objectStoreNames.contains(OLD_LOG)) d.deleteObjectStore(OLD_LOG)
        },
      }).catch(() => null),
    )
    return db === null ? makeMemoryStorage() : makeIdbStorage(db)
  }),
)
