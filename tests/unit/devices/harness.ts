// A reference server holding only what the device endpoints need (core migrations and seed, the core device list,
// the device routes and their stream), with a settable clock and a push hub that records what it was asked to send.
import { rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import type { Kysely } from 'kysely'
import type { Endpoint, RequestOf } from '../../../worker/protocol/endpoint.ts'
import type { PushMessage } from '../../../worker/protocol/push.ts'
import type { AppEnv, ClusterEvents, PushHub, ServerContext } from '../../../server/context.ts'
import { openDatabase } from '../../../server/db/connect.ts'
import { migrate } from '../../../server/db/migrate.ts'
import type { Database } from '../../../server/db/schema.ts'
import { seed } from '../../../server/db/seed.ts'
import { createAuth } from '../../../server/http/auth.ts'
import { DomainError } from '../../../server/http/errors.ts'
import { bindRouting, failure, publicRoute, route } from '../../../server/http/route.ts'
import { registerCardRoutes } from '../../../server/cards/routes.ts'
import { registerDeviceRoutes, seedDeviceDemoData } from '../../../server/devices/index.ts'
import type { LocalStreamServer } from '../../../server/devices/sim/stream-server.ts'
import { testDatabase, testDataDir } from '../../support/test-database.ts'
import { resolveOrigins } from '../../../server/http/origin.ts'

export interface Envelope {
  status: number
  success: boolean
  msg: string
  data: any
}

export interface DeviceTestServer {
  readonly url: string
  readonly db: Kysely<Database>
  readonly pushes: Array<{ to: string; message: PushMessage }>
  /** tokens of the seeded users: demo (owner of 880001-3 and 880005), partner (owner of 880004, grantee of 880005). */
  readonly tokens: { demo: string; partner: string; unbound: string }
  /** this instance's phone stream (the simulated phones' state). */
  readonly stream: LocalStreamServer
  advance(ms: number): void
  call<E extends Endpoint>(token: string | null, endpoint: E, payload: RequestOf<E>): Promise<Envelope>
  close(): Promise<void>
}

/** The events of a deployment of this one instance: handlers run at once. */
const singleInstanceEvents = (): ClusterEvents => {
  const handlers = new Map<string, Array<(payload: unknown) => void>>()
  return {
    async publish(topic, payload) {
      for (const handler of handlers.get(topic) ?? []) handler(payload)
    },
    subscribe(topic, handler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler])
    },
  }
}

export const BUSY_MS = 20_000
export const REBOOT_MS = 5_000

export const startDeviceServer = async (options: { realClock?: boolean } = {}): Promise<DeviceTestServer> => {
  const dataDir = testDataDir('devices-test-')
  const database = await testDatabase('devices')
  const db = await openDatabase({ dataDir, databaseUrl: database.databaseUrl })
  await migrate(db)
  await seed(db)
  await seedDeviceDemoData(db)
  const app = new Hono<AppEnv>()
  // absolute URLs (the connect answer's origin) are built on the server's own origin, as in server/app.ts
  const origins = resolveOrigins(app)
  app.onError((error, c) => {
    if (error instanceof DomainError) return failure(c, error.status, error.msg, error.data)
    console.error(error)
    return failure(c, 500, '服务器错误', null, 500)
  })
  const auth = createAuth(db)
  bindRouting(app, auth)
  const pushes: Array<{ to: string; message: PushMessage }> = []
  const hub: PushHub = {
    async send(to, message) {
      pushes.push({ to, message })
      return 1
    },
    async disconnect() {
      return 0
    },
    async closeTokens() {
      return 0
    },
    stats: () => [],
    liveCount: () => 0,
  }
  let offset = 0
  // a frozen clock, moved only by advance(), so progress through a busy window is exact
  const base = Date.now()
  const now = options.realClock ? Date.now : () => base + offset
  const ctx: ServerContext = { app, db, hub, cluster: singleInstanceEvents(), route, publicRoute, auth, dataDir }
  const devices = registerDeviceRoutes(ctx, { now, busyMs: BUSY_MS, rebootMs: REBOOT_MS })
  registerCardRoutes(ctx)
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  server.on('upgrade', (request, socket, head) => {
    if (!devices.handleUpgrade(request, socket, head)) socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  origins.listening({ url, port: (server.address() as AddressInfo).port })

  const tokens = { demo: 'token-demo', partner: 'token-partner', unbound: 'token-unbound' }
  for (const [name, token] of Object.entries(tokens)) {
    const user = await db.selectFrom('users').select('id').where('username', '=', name === 'unbound' ? 'wx_unbound' : name).executeTakeFirstOrThrow()
    await db.insertInto('sessions').values({ token, user_id: user.id, uuid: 'test' }).execute()
  }

  return {
    url,
    db,
    pushes,
    tokens,
    stream: devices.local,
    advance(ms) {
      offset += ms
    },
    async call(token, endpoint, payload) {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (token) headers.Authorization = token
      const hasBody = endpoint.method === 'POST' || endpoint.method === 'PUT'
      const query = hasBody ? '' : `?${new URLSearchParams(Object.entries(payload as object).map(([k, v]) => [k, String(v)]))}`
      const res = await fetch(`${url}${endpoint.path}${query}`, {
        method: endpoint.method, headers, body: hasBody ? JSON.stringify(payload) : undefined,
      })
      return (await res.json()) as Envelope
    },
    async close() {
      await devices.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await db.destroy()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
