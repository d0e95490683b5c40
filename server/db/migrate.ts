// The one migration path for PGlite and PostgreSQL: every module of server/db/migrations/, then of
// server/devices/migrations/ when that folder exists, each sorted by file name and applied once (recorded in a table).
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

export const migrate = async (db: Kysely<any>): Promise<ReadonlyArray<string>> => {
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
