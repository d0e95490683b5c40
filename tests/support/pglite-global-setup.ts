// Vitest global setup of the `unit` project: one PGlite database created and migrated for the whole run, which each
// test server's data dir starts as a copy of (testDataDir in test-database.ts). PGlite's initdb takes ~5 s a database
// on a 2-core machine and a copy ~0.5 s: with ~50 server test files that was most of the unit suite's time.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { openDatabase, pgliteDir } from '../../server/db/connect.ts'
import { migrate } from '../../server/db/migrate.ts'

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'))
  const db = await openDatabase({ dataDir: dir })
  await migrate(db)
  await db.destroy()
  project.provide('pgliteTemplate', pgliteDir(dir))
  return () => rmSync(dir, { recursive: true, force: true })
}
