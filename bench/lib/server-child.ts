// Child-process entry: runs the reference server (so its RSS is its own) and obeys the bench runner over IPC:
// stamped broadcasts through the real hub, push stats, memory, a minted token for node socket clients.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startServer } from '../../server/app.ts'
import type { ChildReply, ChildRequest } from './server-ipc.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-server-'))
// Push sockets per user: no cap. The fan-out part opens thousands of one user's sockets here (the product's cap of
// MAX_PUSH_SOCKETS_PER_USER, 20, left 1 980 of 2 000 unreached and the run did not say so); no part measures the cap.
const server = await startServer({ port: 0, dataDir, serveApp: false, quiet: true, maxPushSocketsPerUser: Infinity })
const now = (): number => performance.timeOrigin + performance.now()

const handle = async (request: ChildRequest): Promise<unknown> => {
  switch (request.kind) {
    case 'stampedBroadcast': {
      // the stamp goes in the frame so each client can compute its own delivery time on the shared clock
      const sentAt = now()
      const sockets = await server.hub.send(request.user, { type: 'systemAnnouncementMsg', data: { content: `fanout:${sentAt}#${request.tag}` } })
      return { sentAt, sockets, doneAt: now() }
    }
    case 'changePhones': {
      const rows = await server.db.selectFrom('devices').innerJoin('users', 'users.id', 'devices.owner_id').select('devices.id')
        .where('users.phone', '=', request.phone).execute()
      for (const row of rows) {
        server.phones.resetPhone(row.id)
        server.phones.installApp(row.id, request.tag)
      }
      return rows.length
    }
    case 'pushStats': return { users: server.hub.stats(), live: server.hub.liveCount() }
    case 'memory': return process.memoryUsage()
    case 'gc': {
      const gc = (globalThis as { gc?: () => void }).gc
      if (gc) gc()
      return gc !== undefined
    }
    case 'mintToken': {
      const user = await server.db.selectFrom('users').select(['id', 'username']).where('phone', '=', request.phone).executeTakeFirstOrThrow()
      const token = randomBytes(24).toString('hex')
      await server.db.insertInto('sessions').values({ token, user_id: user.id, uuid: 'bench' }).execute()
      return { token, username: user.username }
    }
    case 'close': {
      await server.close()
      setTimeout(() => process.exit(0), 10)
      return null
    }
  }
}

process.on('message', (request: ChildRequest) => {
  handle(request).then(
    (value): ChildReply => ({ id: request.id, ok: true, value }),
    (e: unknown): ChildReply => ({ id: request.id, ok: false, error: e instanceof Error ? e.message : String(e) }),
  ).then((reply) => process.send!(reply))
})
process.send!({ id: 0, ok: true, value: { url: server.url, port: server.port, dataDir } } satisfies ChildReply)
