// Opens the database: PGlite (embedded Postgres) stored in the data dir by default, real PostgreSQL via `pg` when a
// connection URL is given. Both go through the same Kysely query layer.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import { KyselyPGlite } from 'kysely-pglite'
import pg from 'pg'
import type { Database } from './schema.ts'
import { serialDialect } from './serial-dialect.ts'

export interface DatabaseOptions {
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
  /** told when PostgreSQL drops an idle pooled connection (a restart, a failover, an administrator). */
  readonly onIdleError?: (error: Error) => void
}

/** Where PGlite keeps the database inside a data dir. */
export const pgliteDir = (dataDir: string): string => join(dataDir, 'pglite')

export const openDatabase = async ({ dataDir, databaseUrl, onIdleError }: DatabaseOptions): Promise<Kysely<Database>> => {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    // Without a listener, an idle connection the server ends would throw out of the process; the pool drops it and
    // opens another for the next query (a query in flight gets its own error).
    pool.on('error', (error) => onIdleError?.(error))
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  }
  const dir = pgliteDir(dataDir)
  mkdirSync(dir, { recursive: true })
  const { dialect } = await KyselyPGlite.create(dir)
  return new Kysely<Database>({ dialect: serialDialect(dialect) })
}
