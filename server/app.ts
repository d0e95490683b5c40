// Starts the reference server: database (migrated and seeded), every catalogue endpoint, the /push websocket,
// operator endpoints and, on request, the built app under the base path.
import { existsSync, mkdirSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import type { Kysely } from 'kysely'
import type { AppEnv, ServerContext } from './context.ts'
import { openDatabase } from './db/connect.ts'
import { migrate } from './db/migrate.ts'
import type { Database } from './db/schema.ts'
import { seed } from './db/seed.ts'
import { loadLoginKey } from './crypto/login-key.ts'
import { createAuth } from './http/auth.ts'
import { DomainError } from './http/errors.ts'
import { bindRouting, failure, publicRoute, route } from './http/route.ts'
import { serveApp as registerStaticApp } from './http/static-app.ts'
import { attachPushHub, type PushServer } from './push/hub.ts'
import { registerSessionRoutes } from './session/routes.ts'
import { registerCardRoutes } from './cards/routes.ts'
import { registerPayRoutes } from './pay/routes.ts'
import { registerSystemRoutes } from './system/routes.ts'
import { registerOpsRoutes, writeOpsToken } from './ops/routes.ts'

export interface StartOptions {
  readonly port: number
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
  /** serve the built app (appDir, default ./dist) under the base path. */
  readonly serveApp: boolean
  readonly appDir?: string
  /** address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** do not log unexpected errors. */
  readonly quiet?: boolean
}

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly hub: PushServer
  readonly db: Kysely<Database>
  readonly opsToken: string
  close(): Promise<void>
}

const devicesModule = fileURLToPath(new URL('./devices/index.ts', import.meta.url))

/** The devices engineer's routes, registered before the core's so theirs win for reboot and connect. */
const registerDevicesModule = async (ctx: ServerContext): Promise<void> => {
  if (!existsSync(devicesModule)) return
  const mod = (await import(pathToFileURL(devicesModule).href)) as { registerDeviceRoutes?: (ctx: ServerContext) => unknown }
  if (typeof mod.registerDeviceRoutes === 'function') await mod.registerDeviceRoutes(ctx)
}

export const startServer = async (options: StartOptions): Promise<RunningServer> => {
  const dataDir = resolve(options.dataDir)
  mkdirSync(dataDir, { recursive: true })
  const db = await openDatabase({ dataDir, databaseUrl: options.databaseUrl })
  try {
    await migrate(db)
    await seed(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  const loginKey = await loadLoginKey(db)
  const opsToken = writeOpsToken(dataDir)

  const app = new Hono<AppEnv>()
  // Cross-origin isolation for the benchmarks (SharedArrayBuffer, precise timers); everything we serve is same-origin.
  app.use('*', async (c, next) => {
    await next()
    c.header('Cross-Origin-Opener-Policy', 'same-origin')
    c.header('Cross-Origin-Embedder-Policy', 'require-corp')
  })
  app.onError((error, c) => {
    if (error instanceof DomainError) return failure(c, error.status, error.msg, error.data)
    if (!options.quiet) console.error('[server]', c.req.method, c.req.path, error)
    return failure(c, 500, '服务器错误', null, 500)
  })
  app.notFound((c) => failure(c, 404, '接口不存在', null, 404))

  const auth = createAuth(db)
  const registered = bindRouting(app, auth)
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  const hub = attachPushHub(server, auth)
  const ctx: ServerContext = { app, db, hub, route, publicRoute, auth, dataDir, registered }

  await registerDevicesModule(ctx)
  registerSessionRoutes(ctx, loginKey)
  registerCardRoutes(ctx)
  registerPayRoutes(ctx)
  registerSystemRoutes(ctx)
  registerOpsRoutes(ctx, opsToken)
  if (options.serveApp) registerStaticApp(app, resolve(options.appDir ?? 'dist'))

  server.keepAliveTimeout = 65_000
  server.maxConnections = 20_000
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(options.port, host, () => {
      server.off('error', reject)
      resolveListen()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  let closed = false

  return {
    url: `http://${urlHost}:${port}`,
    port,
    hub,
    db,
    opsToken,
    async close() {
      if (closed) return
      closed = true
      await hub.close()
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
      await db.destroy()
    },
  }
}
