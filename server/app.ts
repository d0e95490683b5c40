// Starts the reference server: database (migrated and seeded), every catalogue endpoint, the /push websocket,
// operator endpoints and, on request, the built app under the base path.
import { mkdirSync } from 'node:fs'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import type { Kysely } from 'kysely'
import type { App, AppEnv, ServerContext } from './context.ts'
import { openDatabase } from './db/connect.ts'
import { ambientDatabase } from './db/ambient.ts'
import { purgeIdempotencyKeys } from './http/idempotency.ts'
import { IDEMPOTENCY_PURGE_INTERVAL_MS } from '../worker/protocol/idempotency.ts'
import { lockDataDir } from './db/data-dir-lock.ts'
import { migrate, withSchemaLock } from './db/migrate.ts'
import type { Database } from './db/schema.ts'
import { seed } from './db/seed.ts'
import { loadLoginKey } from './crypto/login-key.ts'
import { createAuth } from './http/auth.ts'
import { limitBodies } from './http/body-limit.ts'
import { resolveClientAddresses } from './http/client-address.ts'
import { resolveOrigins, type Origins } from './http/origin.ts'
import { sendSecurityHeaders } from './http/security-headers.ts'
import { parseAllowedOrigins, refuseUpgrade, socketOriginAllowed } from './http/socket-origin.ts'
import { DomainError } from './http/errors.ts'
import { bindRouting, failure, publicRoute, route } from './http/route.ts'
import { serveApp as registerStaticApp } from './http/static-app.ts'
import { createPushHub, type PushServer } from './push/hub.ts'
import { createLocalBus } from './cluster/bus.ts'
import { createHttpDrain } from './cluster/http-drain.ts'
import { createInstanceRegistry } from './cluster/instances.ts'
import { createPostgresBus } from './cluster/postgres-bus.ts'
import { sharedSecret } from './cluster/secrets.ts'
import { clusterDb } from './cluster/tables.ts'
import { registerSessionRoutes } from './session/routes.ts'
import { registerPasswordRegisterSwitch } from './session/register-switch.ts'
import { registerAppletRoutes } from './session/applet.ts'
import { registerCardRoutes } from './cards/routes.ts'
import type { LocalStreamServer } from './devices/sim/stream-server.ts'
import { registerDeviceRoutes, seedDeviceDemoData } from './devices/index.ts'
import { registerPayRoutes } from './pay/routes.ts'
import { registerPayGatewayRoutes } from './pay/h5-gateway.ts'
import { registerPaySwitchRoutes } from './pay/pay-switch.ts'
import { registerMealRulesRoutes } from './pay/meal-rules.ts'
import { registerActivityRoutes } from './activity/routes.ts'
import { registerAnalyticsRoutes } from './system/analytics.ts'
import { registerFileRoutes } from './files/routes.ts'
import { chunkRows, filesUnder } from './files/phone-file-bytes.ts'
import type { PhoneFilesSink } from './files/phone-files.ts'
import { registerSystemRoutes } from './system/routes.ts'
import { registerMessageRoutes } from './messages/routes.ts'
import { registerAccountModuleRoutes } from './account/routes.ts'
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
  /** the operator token shared by every instance (OPS_TOKEN); by default one kept in the database. */
  readonly opsToken?: string | undefined
  /** how long a graceful stop waits for requests in flight before cutting them (default 10 s). */
  readonly shutdownGraceMs?: number
  /** addresses of the load balancers in front (TRUSTED_PROXIES): their X-Forwarded-For names the client. */
  readonly trustedProxies?: ReadonlyArray<string>
  /** the origin clients reach the deployment under (PUBLIC_ORIGIN), for the absolute URLs it hands out (http/origin.ts). */
  readonly publicOrigin?: string | undefined
  /** push sockets one user may hold on this instance (MAX_PUSH_SOCKETS_PER_USER; default in push/local-sockets.ts). */
  readonly maxPushSocketsPerUser?: number | undefined
  /** phones this instance encodes at once (MAX_ENCODING_PHONES; default in devices/sim/stream-server.ts). */
  readonly maxEncodingPhones?: number | undefined
  /** demo mode of payments: the simulated Alipay H5 / WeChat gateway that settles with one tap (server/pay/h5-gateway.ts);
   * off unless asked for (server/main.ts: DEMO_PAY_GATEWAY, on by default only on PGlite). */
  readonly demoPayGateway?: boolean
  /** where files uploaded to a cloud phone reach its screen (tests watch it here); by default the devices' phone stream. */
  readonly phoneFiles?: PhoneFilesSink | undefined
  /** page origins besides the server's own that may open its websockets (ALLOWED_ORIGINS; PUBLIC_ORIGIN is one too). */
  readonly allowedOrigins?: ReadonlyArray<string>
  /** test-only shortened device busy windows (DEVICE_BUSY_MS / DEVICE_REBOOT_MS); the product defaults otherwise. */
  readonly deviceClock?: { readonly busyMs?: number | undefined; readonly rebootMs?: number | undefined }
}

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly hub: PushServer
  readonly db: Kysely<Database>
  readonly opsToken: string
  /** this instance's simulated phones (the bench changes their pictures). */
  readonly phones: LocalStreamServer
  /**
   * Graceful stop: refuses new connections, closes the push sockets with CLOSE_SERVICE_RESTART, lets requests in
   * flight finish (cut after the grace), leaves the instance registry, then closes the database.
   */
  close(): Promise<void>
}

/** How long a graceful stop lets requests in flight finish before cutting them (SHUTDOWN_GRACE_MS). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

/** The demo data, seeded once however many instances start at once (each seed skips rows that exist). */
const seedDemoData = (db: Kysely<Database>): Promise<void> =>
  withSchemaLock(db, async (trx) => {
    await seed(trx)
    await seedDeviceDemoData(trx)
  })

const listen = (server: Server, port: number, host: string): Promise<void> =>
  new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolveListen()
    })
  })

/** The bare app with isolation headers, the error envelope and the 404 envelope (no routes). */
export const buildApp = (quiet: boolean, trustedProxies: ReadonlyArray<string> = [], publicOrigin?: string): App & { origins: Origins } => {
  const app = new Hono<AppEnv>()
  resolveClientAddresses(app, trustedProxies)
  const origins = resolveOrigins(app, { publicOrigin })
  // Cross-origin isolation for the benchmarks (SharedArrayBuffer, precise timers); everything we serve is same-origin.
  app.use('*', async (c, next) => {
    await next()
    c.header('Cross-Origin-Opener-Policy', 'same-origin')
    c.header('Cross-Origin-Embedder-Policy', 'require-corp')
  })
  limitBodies(app)
  sendSecurityHeaders(app)
  app.onError((error, c) => {
    if (error instanceof DomainError) return failure(c, error.status, error.msg, error.data)
    if (!quiet) console.error('[server]', c.req.method, c.req.path, error)
    return failure(c, 500, '服务器错误', null, 500)
  })
  app.notFound((c) => failure(c, 404, '接口不存在', null, 404))
  return Object.assign(app, { origins })
}

export const startServer = async (options: StartOptions): Promise<RunningServer> => {
  const dataDir = resolve(options.dataDir)
  mkdirSync(dataDir, { recursive: true })
  const unlock = options.databaseUrl ? () => undefined : lockDataDir(dataDir)
  const cleanups: Array<() => Promise<void> | void> = [unlock]
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.splice(0).reverse()) await step()
  }
  try {
    const log = options.quiet ? () => undefined : (line: string) => console.log(line)
    // every query of a keyed write joins its transaction (db/ambient.ts)
    const db = ambientDatabase(await openDatabase({
      dataDir, databaseUrl: options.databaseUrl, onIdleError: (error) => log(`[db] 数据库连接断开（${error.message}），下次查询将重新连接`),
    }))
    cleanups.push(() => db.destroy())
    await migrate(db)
    await seedDemoData(db)
    const loginKey = await loadLoginKey(db)
    const cluster = clusterDb(db)
    const opsToken = options.opsToken || (await sharedSecret(cluster, 'ops-token'))

    const app = buildApp(options.quiet ?? false, options.trustedProxies, options.publicOrigin)
    const auth = createAuth(db)
    bindRouting(app, auth, db)
    const purgeKeys = setInterval(() => void purgeIdempotencyKeys(db).catch(() => undefined), IDEMPOTENCY_PURGE_INTERVAL_MS)
    purgeKeys.unref()
    cleanups.push(() => clearInterval(purgeKeys))
    const server = createAdaptorServer({ fetch: app.fetch }) as Server
    const httpDrain = createHttpDrain(server)
    // one instance of many over PostgreSQL, or the whole deployment on PGlite (the same hub over an in-process bus)
    const instances = createInstanceRegistry(cluster, { exclusive: !options.databaseUrl })
    const bus = options.databaseUrl ? createPostgresBus(options.databaseUrl, cluster, log) : createLocalBus()
    const hub = createPushHub(auth, bus, instances, { maxSocketsPerUser: options.maxPushSocketsPerUser })
    cleanups.push(() => hub.close())
    await hub.start()
    const ctx: ServerContext = { app, db, hub, cluster: hub.events, route, publicRoute, auth, dataDir }

    // phone files' bytes: files under the data dir for one instance over PGlite, chunk rows every instance reaches over PostgreSQL
    const phoneFileBytes = options.databaseUrl ? chunkRows(db) : filesUnder(join(dataDir, 'files', 'phone'), db)
    const devices = registerDeviceRoutes(ctx, {
      phoneFileBytes,
      ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}),
      ...(options.maxEncodingPhones !== undefined ? { maxEncodingPhones: options.maxEncodingPhones } : {}),
      ...(options.deviceClock?.busyMs !== undefined ? { busyMs: options.deviceClock.busyMs } : {}),
      ...(options.deviceClock?.rebootMs !== undefined ? { rebootMs: options.deviceClock.rebootMs } : {}),
    })
    let devicesClosed: Promise<void> | null = null
    const closeDevices = () => (devicesClosed ??= devices.close())
    cleanups.push(closeDevices)
    const socketOrigins = parseAllowedOrigins([...(options.allowedOrigins ?? []), options.publicOrigin])
    // One dispatcher for every websocket upgrade: the devices' stream first, then /push, else refused.
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined)
      // a browser page of another origin may not open them (http/socket-origin.ts)
      if (!socketOriginAllowed(request, socketOrigins)) return refuseUpgrade(socket)
      if (devices.handleUpgrade(request, socket, head)) return
      if (hub.handleUpgrade(request, socket, head)) return
      socket.destroy()
    })
    registerPasswordRegisterSwitch(ctx)
    cleanups.push(registerSessionRoutes(ctx, loginKey))
    registerAppletRoutes(ctx)
    registerCardRoutes(ctx)
    registerPayRoutes(ctx)
    registerPayGatewayRoutes(ctx, { demo: options.demoPayGateway === true })
    registerPaySwitchRoutes(ctx)
    registerMealRulesRoutes(ctx)
    registerActivityRoutes(ctx)
    registerAnalyticsRoutes(ctx)
    cleanups.push(registerFileRoutes(ctx, { phone: options.phoneFiles ?? devices.stream, avatarsOnDisk: !options.databaseUrl, phoneFileBytes }))
    registerSystemRoutes(ctx)
    registerMessageRoutes(ctx)
    registerAccountModuleRoutes(ctx)
    registerOpsRoutes(ctx, opsToken, hub, devices.local)
    if (options.serveApp) registerStaticApp(app, resolve(options.appDir ?? 'dist'))

    server.keepAliveTimeout = 65_000
    server.maxConnections = 20_000
    const host = options.host ?? '127.0.0.1'
    await listen(server, options.port, host)
    const port = (server.address() as AddressInfo).port
    const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
    const url = `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`
    app.origins.listening({ url, port })
    await hub.join(url)
    cleanups.push(async () => {
      // stop accepting first, then close what is open; the bus and the database stay up for requests in flight
      const http = httpDrain.drain(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS)
      await Promise.all([hub.drain(2_000), closeDevices()])
      await http
      await hub.leave().catch(() => undefined)
    })
    // Written only once listening, so a server failing on a busy port does not replace the running one's token.
    writeOpsToken(dataDir, opsToken)

    let closing: Promise<void> | null = null
    return { url, port, hub, db, opsToken, phones: devices.local, close: () => (closing ??= cleanup()) }
  } catch (error) {
    await cleanup()
    throw error
  }
}
