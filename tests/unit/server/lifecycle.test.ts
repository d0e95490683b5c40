// Server lifecycle over one data dir: one server at a time, and a restart keeps the key, users and devices as they were.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startServer } from '../../../server/app.ts'
import { demoUsers } from '../../../server/db/seed.ts'
import { api, loginToken } from './helpers.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'cloud-phone-lifecycle-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('a second server on a data dir in use is refused, and a restart keeps the key and the seeded data once', async () => {
  const first = await startServer({ port: 0, dataDir, serveApp: false, quiet: true })
  const key = (await api<string>(first.url, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
  await expect(startServer({ port: 0, dataDir, serveApp: false, quiet: true })).rejects.toThrow('正被另一个服务器进程使用')
  expect((await api(first.url, 'GET', '/api/public/v1/system/config')).body.status).toBe(0)
  await first.close()

  const second = await startServer({ port: 0, dataDir, serveApp: false, quiet: true })
  try {
    expect((await api<string>(second.url, 'POST', '/api/user/v1/client/login/getPbKey')).body.data).toBe(key)
    const { token } = await loginToken(second.url, '13800138000')
    const devices = await api<unknown[]>(second.url, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token })
    expect(devices.body.data).toHaveLength(5)
    const users = await second.db.selectFrom('users').select('id').execute()
    expect(users).toHaveLength(Object.keys(demoUsers).length)
  } finally {
    await second.close()
  }
}, 90_000)
