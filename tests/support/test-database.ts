// Which database a server test runs on. The `unit` project runs the server suite on PGlite (a data dir), the
// `unit-postgres` project runs the same files on a real PostgreSQL (a fresh database per server in the cluster its
// global setup started). A test that must know says `databaseKind()`.
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { pgliteDir } from '../../server/db/connect.ts'
import { createDatabase, dropDatabase } from './postgres.ts'

export type DatabaseKind = 'pglite' | 'postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** set by each unit project: the database its server tests run on. */
    database: DatabaseKind
    /** the throwaway cluster's maintenance database (unit-postgres only). */
    postgresAdminUrl: string
    /** a migrated, empty PGlite database to copy (unit only: pglite-global-setup.ts). */
    pgliteTemplate: string | undefined
  }
}

export const databaseKind = (): DatabaseKind => inject('database') ?? 'pglite'

export interface TestDatabase {
  /** the DATABASE_URL to give the server (several instances may share it); undefined on PGlite (the data dir). */
  readonly databaseUrl: string | undefined
  drop(): Promise<void>
}

/** A fresh, empty database for one test server (or several instances of one). */
export const testDatabase = async (name = 'server'): Promise<TestDatabase> => {
  if (databaseKind() !== 'postgres') return { databaseUrl: undefined, drop: async () => undefined }
  const adminUrl = inject('postgresAdminUrl')
  const databaseUrl = await createDatabase(adminUrl, name)
  return { databaseUrl, drop: () => dropDatabase(adminUrl, databaseUrl) }
}

/**
 * A new temp data dir for a test server. On PGlite it already holds a migrated, empty database (a copy of the run's
 * template), which the server opens as it would its own from an earlier start: a server's start then takes ~1 s, not
 * PGlite's ~5 s initdb. Elsewhere (PostgreSQL, or no template provided) it is empty.
 */
export const testDataDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const template = databaseKind() === 'pglite' ? inject('pgliteTemplate') : undefined
  if (template) cpSync(template, pgliteDir(dir), { recursive: true })
  return dir
}
