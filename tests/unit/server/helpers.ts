// Shared set-up of the server tests: a server on port 0 over a temp data dir and the project's database (PGlite in
// that dir, or a fresh PostgreSQL database: tests/support/test-database.ts), the tab's login encryption, API calls.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'
import { afterAll, beforeAll, vi } from 'vitest'
import WebSocket from 'ws'
import { startServer, type RunningServer } from '../../../server/app.ts'
import type { PhoneFilesSink } from '../../../server/files/phone-files.ts'
import type { OpsTarget } from '../../../server/ops.ts'
import { testDatabase, testDataDir } from '../../support/test-database.ts'

export interface TestServer {
  readonly server: RunningServer
  readonly dataDir: string
  readonly ops: OpsTarget
  stop(): Promise<void>
}

export const startTestServer = async (
  options: {
    serveApp?: boolean; appDir?: string; trustedProxies?: ReadonlyArray<string>; maxPushSocketsPerUser?: number; phoneFiles?: PhoneFilesSink
    /** the simulated one-tap pay gateway (on: the tests pay through it; off is the server's default). */
    demoPayGateway?: boolean
    /** PUBLIC_ORIGIN: the origin absolute URLs are built on. */
    publicOrigin?: string
  } = {},
): Promise<TestServer> => {
  const dataDir = testDataDir('cloud-phone-server-')
  const database = await testDatabase()
  const server = await startServer({
    port: 0, dataDir, databaseUrl: database.databaseUrl, serveApp: options.serveApp ?? false, appDir: options.appDir, quiet: true,
    trustedProxies: options.trustedProxies, maxPushSocketsPerUser: options.maxPushSocketsPerUser, phoneFiles: options.phoneFiles,
    demoPayGateway: options.demoPayGateway ?? true, publicOrigin: options.publicOrigin,
  })
  return {
    server,
    dataDir,
    ops: { url: server.url, token: server.opsToken },
    async stop() {
      await server.close()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export interface TestInstances {
  readonly servers: ReadonlyArray<RunningServer>
  /** the one database they share (undefined on PGlite). */
  readonly databaseUrl: string | undefined
  readonly ops: ReadonlyArray<OpsTarget>
  stop(): Promise<void>
}

/** `count` server instances over one fresh database (PostgreSQL; on PGlite only one can hold the data). */
export const startTestInstances = async (count: number): Promise<TestInstances> => {
  const database = await testDatabase('instances')
  const dataDirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'cloud-phone-instance-')))
  const servers = await Promise.all(dataDirs.map((dataDir) =>
    startServer({ port: 0, dataDir, databaseUrl: database.databaseUrl, serveApp: false, quiet: true, demoPayGateway: true })))
  return {
    servers,
    databaseUrl: database.databaseUrl,
    ops: servers.map((s) => ({ url: s.url, token: s.opsToken })),
    async stop() {
      await Promise.all(servers.map((s) => s.close()))
      await database.drop()
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * One test server for the whole file: started before its tests, stopped after them, with the long limits real work
 * (requests, hashing, PGlite starting) needs on a shared machine; they only stop a hung test. Read it inside tests.
 */
export const useTestServer = (options: { serveApp?: boolean; appDir?: string } = {}): TestServer & { readonly base: string } => {
  vi.setConfig({ testTimeout: 120_000 })
  let started: TestServer | undefined
  beforeAll(async () => {
    started = await startTestServer(options)
  }, 180_000)
  afterAll(() => started?.stop())
  const now = (): TestServer => {
    if (started === undefined) throw new Error('the test server is read before it started (outside a test?)')
    return started
  }
  return {
    get server() { return now().server },
    get dataDir() { return now().dataDir },
    get ops() { return now().ops },
    get base() { return now().server.url },
    stop: () => now().stop(),
  }
}

export interface Envelope<A = unknown> {
  status: number
  success: boolean
  msg: string
  data: A
}

export const api = async <A = unknown>(
  base: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ http: number; body: Envelope<A>; text: string }> => {
  const headers: Record<string, string> = { client: '7', versionName: '5.9.2', merchantSign: 'SPW', ...options.headers }
  if (options.token) headers.Authorization = options.token
  let body: string | undefined
  if (options.rawBody !== undefined) body = options.rawBody
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(base + path, { method, headers, body })
  const text = await response.text()
  return { http: response.status, body: JSON.parse(text) as Envelope<A>, text }
}

/** What the tab does: PKCS#1 v1.5 (type 2) with the PEM key from getPbKey over the lowercase hex MD5, base64. */
export const encryptPassword = (publicPem: string, password: string): string => {
  const key = forge.pki.publicKeyFromPem(publicPem)
  return forge.util.encode64(key.encrypt(SparkMD5.hash(password), 'RSAES-PKCS1-V1_5'))
}

export const login = async (base: string, phone: string, password: string, extra: Record<string, unknown> = {}) => {
  const key = await api<string>(base, 'POST', '/api/user/v1/client/login/getPbKey')
  return api<{ token: string; username: string; userType: number; phone: string }>(base, 'POST', '/api/user/v1/client/login', {
    body: { phone, password: encryptPassword(key.body.data, password), client: 7, uuid: 'test-uuid', ...extra },
  })
}

export const loginToken = async (base: string, phone: string, password = 'Demo@2026'): Promise<{ token: string; username: string }> => {
  const result = await login(base, phone, password)
  if (result.body.status !== 0) throw new Error(`login failed: ${result.text}`)
  return result.body.data
}

export const pushUrl = (base: string, query: Record<string, string>): string =>
  `${base.replace(/^http/, 'ws')}/push?${new URLSearchParams(query).toString()}`

/** A websocket that records every text frame and its close code. */
export const openSocket = (url: string) => {
  const ws = new WebSocket(url)
  const frames: unknown[] = []
  let closeCode: number | null = null
  const waiters: Array<() => void> = []
  const notify = () => waiters.splice(0).forEach((w) => w())
  ws.on('message', (data) => {
    try {
      frames.push(JSON.parse(data.toString()))
    } catch {
      frames.push(data.toString())
    }
    notify()
  })
  ws.on('close', (code) => {
    closeCode = code
    notify()
  })
  ws.on('error', () => notify())
  const until = async (predicate: () => boolean, timeoutMs = 5_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out waiting on the socket')
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 50)
      })
    }
  }
  return {
    ws,
    frames,
    get closeCode() {
      return closeCode
    },
    opened: () => new Promise<void>((resolve, reject) => {
      if (ws.readyState === WebSocket.OPEN) return resolve()
      ws.once('open', () => resolve())
      ws.once('close', (code) => reject(new Error(`closed with ${code}`)))
    }),
    until,
    close: () => ws.close(),
  }
}
