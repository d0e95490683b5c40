// The reference server as a child process (`server/main.ts`, as `npm start` runs it), for tests that stop and
// restart instances by signal: resolves once it prints its address.
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { childEnv } from './child-env.ts'

export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** everything it printed so far. */
  output(): string
  /** resolves once it has printed `text`. */
  printed(text: string): Promise<void>
  /** sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export const startServerProcess = async (env: Record<string, string>, args: ReadonlyArray<string> = []): Promise<ServerProcess> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    // only what the caller states reaches it (child-env.ts); the tests pay through the simulated gateway: demo mode
    // on explicitly (it is off by default on PostgreSQL)
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', DEMO_PAY_GATEWAY: 'on', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const watchers: Array<() => void> = []
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 240 s:\n${output}`)), 240_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      watchers.splice(0).forEach((w) => w())
      const m = output.match(/服务器已启动：(http:\/\/127\.0\.0\.1:\d+)/)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
    child,
    output: () => output,
    printed: (text) =>
      new Promise<void>((resolve) => {
        const check = () => (output.includes(text) ? resolve() : void watchers.push(check))
        check()
      }),
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** A POST whose headers the instance has taken (100 Continue) before its body is sent. */
export const startedRequest = (base: string, path: string, token: string, body: unknown) => {
  const payload = JSON.stringify(body)
  const target = new URL(path, base)
  const req = request({
    host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), expect: '100-continue', Authorization: token },
  })
  const answered = new Promise<{ http: number; status: number }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString()))
      res.on('end', () => resolve({ http: res.statusCode ?? 0, status: (JSON.parse(text) as { status: number }).status }))
    })
    req.on('error', reject)
  })
  const continued = new Promise<void>((resolve) => req.once('continue', () => resolve()))
  req.flushHeaders()
  // `answered` rejects when the connection is cut before an answer
  return { continued, answered, finish: () => (req.end(payload), answered) }
}
