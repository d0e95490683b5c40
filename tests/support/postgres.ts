// A throwaway PostgreSQL cluster for tests: Debian's server binaries, initdb in a temp dir, the postmaster on a free
// 127.0.0.1 port, run as the `postgres` user when we are root (initdb and postgres refuse root). The postmaster is
// watched by a shell that stops it when our stdin pipe closes, so a test process that dies does not leave it behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { childEnv } from './child-env.ts'

export interface PostgresCluster {
  readonly port: number
  /** connection URL of a database of this cluster (default: the `postgres` maintenance database). */
  url(database?: string): string
  /** creates an empty database with a fresh name; returns its URL. */
  createDatabase(prefix?: string): Promise<string>
  /** drops a database made by createDatabase, closing whatever is still connected to it. */
  dropDatabase(url: string): Promise<void>
  stop(): Promise<void>
}

const NOT_INSTALLED = 'PostgreSQL server binaries not found: install them with `apt-get install -y postgresql` (or set PG_BIN)'

/** The bin dir of the newest installed Debian PostgreSQL, or PG_BIN. */
export const postgresBinDir = (): string => {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) throw new Error(NOT_INSTALLED)
  return join(root, newest, 'bin')
}

const isRoot = (): boolean => process.getuid?.() === 0

const postgresIds = (): { uid: number; gid: number } => {
  const read = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim())
  const uid = read('-u')
  const gid = read('-g')
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, but there is no `postgres` user to run PostgreSQL as')
  return { uid, gid }
}

/** Runs a shell script as the user that may own the cluster. */
const shell = (script: string): ChildProcess =>
  isRoot()
    ? spawn('su', ['postgres', '-s', '/bin/sh', '-c', script], { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() })
    : spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() })

const run = (script: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = shell(script)
    child.stdin?.end()
    let output = ''
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script}\nexited with ${code}:\n${output}`))))
  })

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

const canConnect = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

// Test settings: durability off (a crash loses only a throwaway cluster), room for many servers' pools at once.
const SETTINGS = [
  'listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off',
  'max_connections=400', 'shared_buffers=32MB', 'log_min_messages=fatal',
]

/** Starts the postmaster on a free port; resolves once it accepts connections, rejects if it exits first. */
const startPostmaster = async (bin: string, dir: string): Promise<{ port: number; child: ChildProcess }> => {
  const port = await freePort()
  const options = SETTINGS.map((s) => `-c ${s}`).join(' ')
  // the watchdog: `read` returns when our end of stdin closes (stop(), or this process dying)
  // (an asynchronous list reads /dev/null unless told otherwise, hence fd 3)
  const script = `exec 3<&0
${quote(join(bin, 'postgres'))} -D ${quote(join(dir, 'data'))} -p ${port} -k ${quote(dir)} ${options} </dev/null & pid=$!
(read _ignored <&3; kill -INT $pid 2>/dev/null) &
wait $pid`
  const child = shell(script)
  let output = ''
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()))
  let exited = false
  child.on('exit', () => (exited = true))
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const deadline = Date.now() + 30_000
  while (!(await canConnect(url))) {
    if (exited) throw new Error(`postgres exited before accepting connections:\n${output}`)
    if (Date.now() > deadline) {
      child.stdin?.end()
      throw new Error(`postgres did not accept connections within 30 s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return { port, child }
}

const admin = async <A>(adminUrl: string, f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** Creates an empty database with a fresh name on the cluster of `adminUrl`; returns its URL. */
export const createDatabase = async (adminUrl: string, prefix = 'test'): Promise<string> => {
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`
  await admin(adminUrl, (c) => c.query(`create database "${name}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** Drops a database made by createDatabase, closing whatever is still connected to it. */
export const dropDatabase = async (adminUrl: string, databaseUrl: string): Promise<void> => {
  const name = new URL(databaseUrl).pathname.slice(1).replace(/"/g, '')
  await admin(adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`))
}

export const startPostgres = async (): Promise<PostgresCluster> => {
  const bin = postgresBinDir()
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'))
  if (isRoot()) {
    const { uid, gid } = postgresIds()
    chownSync(dir, uid, gid)
  }
  try {
    await run(`${quote(join(bin, 'initdb'))} -D ${quote(join(dir, 'data'))} -A trust -U postgres -E UTF8 --locale=C --no-sync`)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  let started: { port: number; child: ChildProcess } | null = null
  let lastError: unknown
  // a free port can be taken between the probe and the postmaster's bind: try a few
  for (let attempt = 0; attempt < 3 && !started; attempt++) {
    try {
      started = await startPostmaster(bin, dir)
    } catch (error) {
      lastError = error
    }
  }
  if (!started) {
    rmSync(dir, { recursive: true, force: true })
    throw lastError
  }
  const { port, child } = started
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`
  let stopping: Promise<void> | null = null
  return {
    port,
    url,
    createDatabase: (prefix) => createDatabase(url(), prefix),
    dropDatabase: (databaseUrl) => dropDatabase(url(), databaseUrl),
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
        child.once('exit', () => {
          clearTimeout(timer)
          resolve()
        })
        child.stdin?.end()
      }).then(() => rmSync(dir, { recursive: true, force: true }))
      return stopping
    },
  }
}
