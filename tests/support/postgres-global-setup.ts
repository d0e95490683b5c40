// Vitest global setup of the `unit-postgres` project: one throwaway PostgreSQL cluster for the whole run; each test
// server makes its own database in it (tests/support/test-database.ts).
import type { TestProject } from 'vitest/node'
import { startPostgres } from './postgres.ts'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres()
  project.provide('postgresAdminUrl', cluster.url())
  return () => cluster.stop()
}
