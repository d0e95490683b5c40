// Child-process entry: runs the reference server (so its RSS is its own) and obeys the bench runner over IPC:
// stamped broadcasts through the real hub, push stats, memory, a minted token for node socket clients.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startServer } from '../../server/app.ts'
import { sql } from 'kysely'
import type { ChildReply, ChildRequest, GroupLedgerRows, WatchedField, WatchResult } from './server-ipc.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-server-'))
// Push sockets per user: no cap. The fan-out part opens thousands of one user's sockets here (the product's cap of
// MAX_PUSH_SOCKETS_PER_USER, 20, left 1 980 of 2 000 unreached and the run did not say so); no part measures the cap.
// The chaos part (bench/parts/chaos.ts) restarts its own server on the same port and data folder, serving the bench
// pages itself (one origin for the pages, the API and the push socket behind its test proxy), with the demo gateway.
const appDir = process.env.BENCH_APP_DIR
const server = await startServer({
  port: Number(process.env.BENCH_SERVER_PORT ?? 0), dataDir, serveApp: appDir !== undefined, appDir, quiet: true,
  maxPushSocketsPerUser: Infinity, demoPayGateway: appDir !== undefined, shutdownGraceMs: appDir !== undefined ? 1_000 : undefined,
})
const now = (): number => performance.timeOrigin + performance.now()

interface Watch {
  readonly field: WatchedField
  readonly phones: ReadonlyArray<{ readonly card: number; readonly deviceId: number; readonly base: number }>
  readonly first: Map<number, number>
  readonly timer: NodeJS.Timeout
}
const watches = new Map<number, Watch>()
const fieldOf = (deviceId: number, field: WatchedField): number => server.phones.phoneState(deviceId)?.[field] ?? 0
const look = (w: Watch): void => {
  const t = now()
  for (const p of w.phones) if (!w.first.has(p.card) && fieldOf(p.deviceId, w.field) !== p.base) w.first.set(p.card, t)
}

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
      // the server's Date.now() once every phone changed: a still drawn after it shows the change (its drawn time)
      return { phones: rows.length, at: Date.now() }
    }
    case 'watchPhones': {
      const rows = await server.db.selectFrom('devices').innerJoin('users', 'users.id', 'devices.owner_id')
        .select(['devices.id', 'devices.user_card_id']).where('users.phone', '=', request.phone).execute()
      const phones = rows.map((r) => ({ card: r.user_card_id, deviceId: r.id, base: fieldOf(r.id, request.field) }))
      const w: Watch = { field: request.field, phones, first: new Map(), timer: setInterval(() => look(w), 1) }
      const previous = watches.get(request.watch)
      if (previous) clearInterval(previous.timer)
      watches.set(request.watch, w)
      return phones.map((p) => p.card)
    }
    case 'watchPeek': {
      const w = watches.get(request.watch)
      if (!w) throw new Error(`no watch ${request.watch}`)
      look(w)
      return w.first.size
    }
    case 'watchEnd': {
      const w = watches.get(request.watch)
      if (!w) throw new Error(`no watch ${request.watch}`)
      const cards = request.cards ?? w.phones.map((p) => p.card)
      const until = Date.now() + request.timeoutMs
      while (Date.now() < until && !cards.every((c) => w.first.has(c))) await new Promise((r) => setTimeout(r, 5))
      clearInterval(w.timer)
      watches.delete(request.watch)
      const at: Record<number, number | null> = {}
      const delta: Record<number, number> = {}
      for (const p of w.phones) {
        at[p.card] = w.first.get(p.card) ?? null
        delta[p.card] = fieldOf(p.deviceId, w.field) - p.base
      }
      return { at, delta } satisfies WatchResult
    }
    case 'groupLedger': {
      // the database's clock against this process's, read together (created_at is the transaction's start, now())
      const before = now()
      const clock = await sql<{ ms: number }>`select extract(epoch from clock_timestamp()) * 1000 as ms`.execute(server.db)
      const offset = (before + now()) / 2 - Number(clock.rows[0]!.ms)
      const { rows } = await sql<{ ok: boolean; start_ms: number; ms: number }>`select r.ok, extract(epoch from r.created_at) * 1000 as start_ms, r.ms
        from group_command_results r join users u on u.id = r.user_id where u.phone = ${request.phone} and r.command_id = ${request.commandId}
        order by r.created_at`.execute(server.db)
      return {
        rows: rows.length,
        ok: rows.filter((r) => r.ok).length,
        phones: rows.map((r) => ({ start: Number(r.start_ms) + offset, end: Number(r.start_ms) + Number(r.ms) + offset })),
      } satisfies GroupLedgerRows
    }
    case 'query': return (await sql.raw(request.sql).execute(server.db)).rows
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
