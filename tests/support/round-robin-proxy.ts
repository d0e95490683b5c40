// A small load balancer for tests: each HTTP request and each websocket upgrade goes to the next instance in turn.
// Like any balancer in front of instances that restart, it tries the next instance when one refuses the connection
// or drops it before answering anything (an instance that stops accepting never started on such a request).
// Every upstream connection is fresh (no keep-alive), so "dropped before answering" is unambiguous. Like nginx with
// `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`, it tells the instances who the client is.
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'

export interface ForwardRecord {
  readonly method: string
  readonly path: string
  /** the instance that answered. */
  readonly upstream: string
  readonly startedAt: number
  readonly endedAt: number
  /** instances tried first that refused or dropped it. */
  readonly retries: number
  readonly status: number
  readonly bytes: number
  /** the answer was cut after it began (the client got a truncated body). */
  readonly cut: boolean
}

export interface RoundRobinProxy {
  readonly url: string
  /** replaces the instances (e.g. a restarted one on a new port). */
  setUpstreams(urls: ReadonlyArray<string>): void
  /** every HTTP request answered so far, in the order they ended. */
  readonly forwarded: ReadonlyArray<ForwardRecord>
  /** every attempt an instance refused or dropped: when, which, and the error code. */
  readonly refused: ReadonlyArray<{ readonly at: number; readonly upstream: string; readonly code: string }>
  close(): Promise<void>
}

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })

/** What nginx's $proxy_add_x_forwarded_for sends: the client's list with the address this balancer saw appended. */
const forwardedFor = (request: IncomingMessage): string => {
  const peer = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '')
  const prior = request.headers['x-forwarded-for']
  return prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${peer}` : peer
}

export const startRoundRobinProxy = async (initial: ReadonlyArray<string>): Promise<RoundRobinProxy> => {
  let upstreams = [...initial]
  let next = 0
  const forwarded: ForwardRecord[] = []
  const refused: Array<{ at: number; upstream: string; code: string }> = []
  const openSockets = new Set<Socket | Duplex>()
  const pick = (): URL => new URL(upstreams[next++ % upstreams.length]!)
  /** how long a request may wait for an instance that takes it (a restart leaves one fewer meanwhile). */
  const RETRY_FOR_MS = 5_000

  const server: Server = createServer(async (request, response) => {
    const startedAt = Date.now()
    const body = await readBody(request)
    const headers = { ...request.headers, connection: 'close', 'x-forwarded-for': forwardedFor(request) }
    for (let attempt = 0; attempt === 0 || Date.now() - startedAt < RETRY_FOR_MS; attempt++) {
      const target = pick()
      const answered = await new Promise<boolean>((resolve) => {
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, method: request.method, path: request.url, headers, agent: false },
          (res) => {
            response.writeHead(res.statusCode ?? 502, res.headers)
            let bytes = 0
            res.on('data', (c: Buffer) => (bytes += c.length))
            res.pipe(response)
            let finished = false
            const done = (cut: boolean) => {
              if (finished) return
              finished = true
              forwarded.push({
                method: request.method ?? '', path: request.url ?? '', upstream: target.origin, startedAt, endedAt: Date.now(),
                retries: attempt, status: res.statusCode ?? 0, bytes, cut,
              })
              if (cut) response.destroy()
              resolve(true)
            }
            res.on('end', () => done(false))
            res.on('aborted', () => done(true))
            res.on('error', () => done(true))
          },
        )
        // refused, or dropped before any answer: this instance never handled it
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          refused.push({ at: Date.now(), upstream: target.origin, code: error.code ?? error.message })
          resolve(false)
        })
        upstream.end(body)
      })
      if (answered) return
      await new Promise((r) => setTimeout(r, 20))
    }
    response.writeHead(502, { 'content-type': 'text/plain' })
    response.end('no instance answered')
  })

  server.on('upgrade', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    openSockets.add(client)
    client.on('close', () => openSockets.delete(client))
    client.on('error', () => client.destroy())
    const raw = `${request.method} ${request.url} HTTP/1.1\r\n${Object.entries({ ...request.headers, 'x-forwarded-for': forwardedFor(request) })
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`])).join('\r\n')}\r\n\r\n`
    const startedAt = Date.now()
    const tryUpstream = (attempt: number): void => {
      if (attempt > 0 && Date.now() - startedAt >= RETRY_FOR_MS) return void client.destroy()
      const target = pick()
      const upstream = connect(Number(target.port), target.hostname)
      let connected = false
      upstream.once('connect', () => {
        connected = true
        openSockets.add(upstream)
        upstream.on('close', () => openSockets.delete(upstream))
        upstream.write(raw)
        if (head.length > 0) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.on('error', () => {
        if (!connected) return void setTimeout(() => tryUpstream(attempt + 1), 20)
        client.destroy()
      })
      upstream.on('close', () => client.destroy())
      client.on('close', () => upstream.destroy())
    }
    tryUpstream(0)
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    setUpstreams(urls) {
      upstreams = [...urls]
    },
    forwarded,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of openSockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
