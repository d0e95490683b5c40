// Starts the reference server (server/app.ts) in a child process and talks to it over IPC (see server-child.ts).
import { fork, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import type { PushUserStats } from '../../server/context.ts'
import { childEnv } from '../../tests/support/child-env.ts'
import { benchDir, repoRoot } from './paths.ts'
import type { ChildCommand, ChildReply } from './server-ipc.ts'

export const DEMO_PHONE = '13800138000'
export const DEMO_PASSWORD = 'Demo@2026'
/** the demo account with sixty phones (the per-account maximum): the wall's and group control's parts. */
export const FLEET_PHONE = '13600136000'

export interface ReferenceServer {
  readonly url: string
  readonly pid: number
  /** the server's data folder (its operator token is in <dataDir>/ops-token). */
  readonly dataDir: string
  readonly request: <T>(command: ChildCommand, timeoutMs?: number) => Promise<T>
  readonly pushStats: () => Promise<{ users: PushUserStats[]; live: number }>
  readonly rss: () => Promise<number>
  readonly close: () => Promise<void>
}

export interface ReferenceServerOptions {
  readonly exposeGc?: boolean
  /** a fixed port and data folder: a restart comes back where it was (the chaos part). */
  readonly port?: number
  readonly dataDir?: string
  /** serve this built folder under the app's base path, with the demo payment gateway on. */
  readonly appDir?: string
}

export const startReferenceServer = async (options: ReferenceServerOptions = {}): Promise<ReferenceServer> => {
  const child: ChildProcess = fork(resolve(benchDir, 'lib/server-child.ts'), [], {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx', ...(options.exposeGc ? ['--expose-gc'] : [])],
    // an explicit environment: nothing of the shell's (a DATABASE_URL, say) reaches the server under measurement
    env: childEnv({
      BENCH_DATA_DIR: options.dataDir ?? process.env.BENCH_DATA_DIR,
      BENCH_SERVER_PORT: options.port === undefined ? undefined : String(options.port),
      BENCH_APP_DIR: options.appDir,
    }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let nextId = 1
  let exited: Error | null = null
  child.on('message', (reply: ChildReply) => {
    const waiter = pending.get(reply.id)
    if (!waiter) return
    pending.delete(reply.id)
    if (reply.ok) waiter.resolve(reply.value)
    else waiter.reject(new Error(reply.error))
  })
  child.on('exit', (code) => {
    exited = new Error(`reference server exited with code ${code}`)
    for (const w of pending.values()) w.reject(exited)
    pending.clear()
  })
  const call = <T>(id: number, command: ChildCommand | null, timeoutMs: number): Promise<T> =>
    new Promise<T>((resolveCall, reject) => {
      if (exited) return reject(exited)
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(new Error(`reference server did not answer ${command?.kind ?? 'start'} in ${timeoutMs} ms`))
      }, timeoutMs)
      pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolveCall(v as T) },
        reject: (e) => { clearTimeout(timer); reject(e) },
      })
      if (command) child.send({ ...command, id })
    })
  const request = <T>(command: ChildCommand, timeoutMs = 120_000): Promise<T> => call<T>(nextId++, command, timeoutMs)

  let started: { url: string; dataDir: string }
  try {
    started = await call<{ url: string; dataDir: string }>(0, null, 180_000)
  } catch (e) {
    child.kill()
    throw e
  }
  return {
    url: started.url,
    pid: child.pid!,
    dataDir: started.dataDir,
    request,
    pushStats: () => request({ kind: 'pushStats' }),
    rss: async () => (await request<NodeJS.MemoryUsage>({ kind: 'memory' })).rss,
    close: async () => {
      if (exited) return
      const gone = new Promise<void>((r) => child.once('exit', () => r()))
      await request({ kind: 'close' }, 15_000).catch(() => child.kill())
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))])
      if (!exited) child.kill('SIGKILL')
    },
  }
}
