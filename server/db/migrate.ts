// The one migration path for PGlite and PostgreSQL: every module of server/db/migrations/, then of
// server/devices/migrations/ when that folder exists, each sorted by file name and applied once (recorded in a table).
// All of it runs in one transaction holding an advisory lock, so instances starting at once over one database
// migrate it once: the others wait for the lock, then find every migration recorded.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sql, type Kysely } from 'kysely'

export interface Migration {
  up(db: Kysely<any>): Promise<void>
}

const serverDir = fileURLToPath(new URL('..', import.meta.url))

/** Migration folders in the order they run, each with the prefix its entries are recorded under. */
export const migrationFolders = (): ReadonlyArray<{ prefix: string; dir: string }> =>
  [
    { prefix: 'core', dir: join(serverDir, 'db', 'migrations') },
    { prefix: 'devices', dir: join(serverDir, 'devices', 'migrations') },
  ].filter((f) => existsSync(f.dir))

const isMigrationFile = (name: string): boolean =>
  /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !/\.test\.[tj]s$/.test(name)

/** The advisory lock key of schema changes and demo seeding (any fixed number of ours). */
const SCHEMA_LOCK_KEY = 918_273_645

/** Runs `work` in a transaction that first takes the schema lock (held until commit or rollback). */
export const withSchemaLock = <DB, A>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<A>): Promise<A> =>
  db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(SCHEMA_LOCK_KEY)})`.execute(trx)
    return work(trx)
  })

export const migrate = (db: Kysely<any>): Promise<ReadonlyArray<string>> => withSchemaLock(db, applyMigrations)

const applyMigrations = async (db: Kysely<any>): Promise<ReadonlyArray<string>> => {
  await sql`create table if not exists schema_migrations (
    name text primary key,
    applied_at timestamptz not null default now()
  )`.execute(db)
  const done = new Set((await db.selectFrom('schema_migrations').select('name').execute()).map((r: { name: string }) => r.name))
  const applied: string[] = []
  for (const { prefix, dir } of migrationFolders()) {
    for (const file of readdirSync(dir).filter(isMigrationFile).sort()) {
      const name = `${prefix}/${file.replace(/\.[^.]+$/, '')}`
      if (done.has(name)) continue
      const mod = (await import(pathToFileURL(join(dir, file)).href)) as Partial<Migration>
      if (typeof mod.up !== 'function') throw new Error(`migration ${name} does not export up(db)`)
      await mod.up(db)
      await db.insertInto('schema_migrations').values({ name }).execute()
      applied.push(name)
    }
  }
  return applied
}
