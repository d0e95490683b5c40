// Server lifecycle over one database: on PGlite one server per data dir; on PostgreSQL several instances starting at
// once migrate and seed it once; a restart keeps the key, users and devices as they were; migrating again is a no-op.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../../server/app.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { demoUsers } from '../../../server/db/seed.ts'
import { databaseKind, testDatabase, type TestDatabase } from '../../support/test-database.ts'
import { api, loginToken } from './helpers.ts'

const dataDirs: string[] = []
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloud-phone-lifecycle-'))
  dataDirs.push(dir)
  return dir
}
let database: TestDatabase
beforeAll(async () => {
  database = await testDatabase('lifecycle')
})
afterAll(async () => {
  await database?.drop()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

const start = (dataDir: string): Promise<RunningServer> =>
  startServer({ port: 0, dataDir, databaseUrl: database.databaseUrl, serveApp: false, quiet: true })

const publicKey = async (server: RunningServer): Promise<string> =>
  (await api<string>(server.url, 'POST', '/api/user/v1/client/login/getPbKey')).body.data

it('two servers started at once over one database: PGlite refuses the second, PostgreSQL runs both on one schema', async () => {
  const dataDir = newDataDir()
  if (databaseKind() === 'pglite') {
    const first = await start(dataDir)
    try {
      await expect(start(dataDir)).rejects.toThrow('正被另一个服务器进程使用')
      expect((await api(first.url, 'GET', '/api/public/v1/system/config')).body.status).toBe(0)
    } finally {
      await first.close()
    }
    return
  }
  // each instance has its own data dir (nothing in it is shared); the database is the shared state
  const [a, b] = await Promise.all([start(dataDir), start(newDataDir())])
  try {
    const names = await a.db.selectFrom('schema_migrations' as never).select('name' as never).execute() as Array<{ name: string }>
    expect(names.length).toBeGreaterThan(0)
    expect(new Set(names.map((n) => n.name)).size).toBe(names.length)
    expect(await a.db.selectFrom('users').select('id').execute()).toHaveLength(Object.keys(demoUsers).length)
    expect(await publicKey(a)).toBe(await publicKey(b))
    // a token issued by one instance is honoured by the other
    const { token } = await loginToken(a.url, '13800138000')
    const devices = await api<unknown[]>(b.url, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token })
    expect(devices.body.data).toHaveLength(5)
  } finally {
    await Promise.all([a.close(), b.close()])
  }
}, 120_000)

it('a restart keeps the key and the seeded data once, and migrating again applies nothing', async () => {
  const dataDir = newDataDir()
  const first = await start(dataDir)
  const key = await publicKey(first)
  await first.close()

  const second = await start(dataDir)
  try {
    expect(await publicKey(second)).toBe(key)
    const { token } = await loginToken(second.url, '13800138000')
    const devices = await api<unknown[]>(second.url, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token })
    expect(devices.body.data).toHaveLength(5)
    expect(await second.db.selectFrom('users').select('id').execute()).toHaveLength(Object.keys(demoUsers).length)
    expect(await migrate(second.db)).toEqual([])
  } finally {
    await second.close()
  }
}, 120_000)
