// The request's transaction, found by every query of the request (issue 40). A keyed write (http/idempotency.ts) runs
// its handler inside one transaction that also stores the key's outcome, so the write and its record commit together
// or not at all. Handlers use the database they were given at start; wrapped by `ambientDatabase`, it answers with the
// request's transaction while one is open, and the handler's own `db.transaction()` becomes a savepoint inside it (its
// failure undoes only its own writes, as before). Outside a keyed write, and after its commit, it is the plain database.
import { AsyncLocalStorage } from 'node:async_hooks'
import { sql, type Kysely, type Transaction } from 'kysely'

interface Ambient {
  readonly trx: Transaction<any>
  open: boolean
  savepoints: number
}

const current = new AsyncLocalStorage<Ambient>()

/** Runs `work` with `trx` as the ambient transaction of every query `work` makes through an ambient database. */
export const withAmbientTransaction = async <A>(trx: Transaction<any>, work: () => Promise<A>): Promise<A> => {
  const ambient: Ambient = { trx, open: true, savepoints: 0 }
  try {
    return await current.run(ambient, work)
  } finally {
    // work it started and did not wait for (a timer, a push) goes to the plain database from now on
    ambient.open = false
  }
}

/** `db.transaction()` inside an ambient transaction: a savepoint, with the builder's chainable settings ignored. */
const nestedTransaction = (ambient: Ambient) => {
  const builder = {
    setIsolationLevel: () => builder,
    setAccessMode: () => builder,
    execute: async <A>(fn: (trx: Transaction<any>) => Promise<A>): Promise<A> => {
      const name = sql.raw(`nested_${++ambient.savepoints}`)
      await sql`savepoint ${name}`.execute(ambient.trx)
      try {
        const result = await fn(ambient.trx)
        await sql`release savepoint ${name}`.execute(ambient.trx)
        return result
      } catch (error) {
        await sql`rollback to savepoint ${name}`.execute(ambient.trx)
        throw error
      }
    },
  }
  return builder
}

export const ambientDatabase = <DB>(root: Kysely<DB>): Kysely<DB> =>
  new Proxy(root, {
    get(target, prop, receiver) {
      // an area's typed view of the database (`db.withTables<…>()`) is the same database: it must stay ambient too
      if (prop === 'withTables') return () => receiver
      const ambient = current.getStore()
      if (ambient?.open === true && prop === 'transaction') return () => nestedTransaction(ambient)
      // Kysely keeps its state in private fields: a method runs on the object itself, never on this proxy
      const self = ambient?.open === true ? ambient.trx : target
      const value = Reflect.get(self, prop, self)
      return typeof value === 'function' ? value.bind(self) : value
    },
  })
