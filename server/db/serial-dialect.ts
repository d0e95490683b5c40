// PGlite is one database session shared by every Kysely "connection": without care, the statements of concurrent
// requests run inside each other's transactions (a rollback undoes a stranger's write, `FOR UPDATE` locks nothing,
// an error aborts everyone's statements). This wrapper hands out the one connection to one user at a time: a query
// holds it for its statement, a transaction from BEGIN to COMMIT/ROLLBACK (issue 11 finding 9). Real PostgreSQL
// keeps its pool; only the embedded database is wrapped.
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely'

/** A FIFO lock: `acquire` resolves with the function that releases it. */
export const createMutex = () => {
  let tail: Promise<void> = Promise.resolve()
  return {
    acquire(): Promise<() => void> {
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      const ready = tail.then(() => release)
      tail = tail.then(() => held)
      return ready
    },
  }
}

class SerialDriver implements Driver {
  readonly #inner: Driver
  readonly #mutex = createMutex()
  #release: (() => void) | null = null

  constructor(inner: Driver) {
    this.#inner = inner
  }

  init(): Promise<void> {
    return this.#inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.acquire()
    try {
      const connection = await this.#inner.acquireConnection()
      this.#release = release
      return connection
    } catch (error) {
      release()
      throw error
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings)
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection)
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#release
    this.#release = null
    try {
      await this.#inner.releaseConnection(connection)
    } finally {
      release?.()
    }
  }

  destroy(): Promise<void> {
    return this.#inner.destroy()
  }
}

/** The dialect with its connection handed out one user at a time. */
export const serialDialect = (dialect: Dialect): Dialect => ({
  createAdapter: () => dialect.createAdapter(),
  createDriver: () => new SerialDriver(dialect.createDriver()),
  createQueryCompiler: () => dialect.createQueryCompiler(),
  createIntrospector: (db) => dialect.createIntrospector(db),
})
