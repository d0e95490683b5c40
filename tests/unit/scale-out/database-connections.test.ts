// PostgreSQL ending the servers' connections (a restart, a failover, an administrator): the process survives, the
// query pool opens new connections, and the push bus listens again, so pushes cross instances once more.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openDatabase } from '../../../server/db/connect.ts'
import type { Database } from '../../../server/db/schema.ts'
import { opsPush } from '../../../server/ops.ts'
import { loginToken, openSocket, pushUrl, startTestInstances, type TestInstances } from '../server/helpers.ts'

vi.setConfig({ testTimeout: 60_000 })
let t: TestInstances

beforeAll(async () => {
  t = await startTestInstances(2)
}, 180_000)
afterAll(() => t?.stop())

/** Ends every other connection to the database, as `pg_ctl restart` or a failover would. */
const endConnections = (db: Kysely<Database>) =>
  sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(db)

const waitUntil = async (done: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('connections ended by PostgreSQL', () => {
  it('an idle pooled connection ended by the server is reported and replaced, not thrown out of the process', async () => {
    const errors: Error[] = []
    const dataDir = mkdtempSync(join(tmpdir(), 'cloud-phone-pool-'))
    const db = await openDatabase({ dataDir, databaseUrl: t.databaseUrl, onIdleError: (e) => errors.push(e) })
    try {
      // one connection in the pool, idle after this
      const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!
      await sql`select pg_terminate_backend(${pid})`.execute(t.servers[0]!.db)
      await waitUntil(() => errors.length > 0, 10_000)
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1)
    } finally {
      await db.destroy()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('after every connection is ended, the bus listens again: a push fired at one instance reaches a socket on the other', async () => {
    const [a, b] = [t.servers[0]!, t.servers[1]!]
    const user = await loginToken(a.url, '13800138000')
    const socket = openSocket(pushUrl(b.url, { deviceId: 'd', username: user.username, Authorization: user.token }))
    await socket.opened()
    await endConnections(a.db)
    // until both listening connections are back (each reconnects on its own), a push may miss the other instance
    await waitUntil(async () => (await opsPush(t.ops[0]!, 'demo', 'refreshCloudPhoneList').catch(() => 0)) === 1, 20_000)
    const before = socket.frames.length
    expect(await opsPush(t.ops[0]!, 'demo', 'sendCouponMsg', { content: '重连之后' })).toBe(1)
    await socket.until(() => socket.frames.length > before)
    expect(socket.frames.at(-1)).toEqual({ type: 'sendCouponMsg', data: { content: '重连之后' } })
    socket.close()
  })
})
