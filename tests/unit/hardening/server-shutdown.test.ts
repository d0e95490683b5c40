// Issue 11 finding 14: a stopping server (SIGTERM, as `npm start` runs it) finishes the requests in flight, cuts the
// ones still open at its deadline (SHUTDOWN_GRACE_MS) and exits; a second signal exits at once.
import { rmSync } from 'node:fs'
import { afterEach, expect, it, vi } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { startedRequest, startServerProcess, type ServerProcess } from '../../support/server-process.ts'
import { testDatabase, testDataDir, type TestDatabase } from '../../support/test-database.ts'
import { loginToken } from '../server/helpers.ts'

vi.setConfig({ testTimeout: 300_000 })

let running: { process: ServerProcess; database: TestDatabase; dataDir: string } | null = null

const start = async (graceMs: number): Promise<ServerProcess> => {
  const dataDir = testDataDir('cloud-phone-shutdown-')
  const database = await testDatabase('shutdown')
  const env: Record<string, string> = { DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: String(graceMs) }
  if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl
  const process = await startServerProcess(env)
  running = { process, database, dataDir }
  return process
}

afterEach(async () => {
  if (!running) return
  await running.process.stop('SIGKILL')
  await running.database.drop()
  rmSync(running.dataDir, { recursive: true, force: true })
  running = null
})

const visit = catalogue.operationVisitDetailed.path

it('finishes a request in flight, cuts one still open at the deadline, then exits', async () => {
  const graceMs = 3_000
  const server = await start(graceMs)
  const { token } = await loginToken(server.url, '13800138000')
  const finishing = startedRequest(server.url, visit, token, { uuid: 'finishes', operationType: 1 })
  const hanging = startedRequest(server.url, visit, token, { uuid: 'never-sent', operationType: 1 })
  const cut = hanging.answered.then(() => 'answered', () => 'cut')
  await Promise.all([finishing.continued, hanging.continued])
  const signalledAt = Date.now()
  const exited = server.stop('SIGTERM')
  await server.printed('收到 SIGTERM')
  // the server is draining: the request whose body arrives now still gets its answer
  expect(await finishing.finish()).toEqual({ http: 200, status: 0 })
  expect(await exited).toBe(0)
  // it waited for the open request up to the deadline, then cut it
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(graceMs - 100)
  expect(await cut).toBe('cut')
})

it('a second signal while draining exits at once', async () => {
  const server = await start(600_000)
  const { token } = await loginToken(server.url, '13800138000')
  const hanging = startedRequest(server.url, visit, token, { uuid: 'never-sent', operationType: 1 })
  void hanging.answered.catch(() => undefined)
  await hanging.continued
  server.child.kill('SIGTERM')
  await server.printed('收到 SIGTERM')
  const secondAt = Date.now()
  const code = await server.stop('SIGTERM')
  expect(code).toBe(1)
  expect(server.output()).toContain('再次收到 SIGTERM，立即退出')
  // far inside the 10-minute grace the first signal would have waited
  expect(Date.now() - secondAt).toBeLessThan(30_000)
})
