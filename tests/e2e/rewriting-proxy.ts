// A loopback proxy in front of the e2e server for one test: it relays everything (the built app, the API, the /push
// and device-stream websockets) byte for byte, and can be told to answer one endpoint with a given HTTP status or
// body status, or to hold its requests for a while. The app opened through it is a different origin, so it gets its
// own core (SharedWorker and IndexedDB). Start it in the test (or a beforeAll) and close it there.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/** How to answer a matching request instead of the server. */
export type Rewrite =
  /** this HTTP status, with a JSON body `{status, msg, data: null}` carrying the same code. */
  | { readonly httpStatus: number; readonly msg?: string }
  /** HTTP 200 with `{status: bodyStatus, msg, data: null}`: a catalogue error in the body; `msg: null` leaves it out. */
  | { readonly bodyStatus: number; readonly msg?: string | null }
  /** no reply at all: the connection is dropped (a transport failure). */
  | { readonly network: true }
  /** HTTP 200 with a success body `{status: 0, msg: '', data}`: what the server could have said. */
  | { readonly data: unknown }
  /** the server's own answer, relayed after `delayMs`. */
  | { readonly delayMs: number }

export interface Exchange {
  readonly method: string
  readonly path: string
  /** Date.now() when the proxy finished answering (or -1 while it is still pending). */
  answeredAt: number
  readonly rewritten: boolean
  /** the body sent to the app (rewritten or relayed), as text; empty until answered. */
  body: string
}

export interface RewritingProxy {
  readonly origin: string
  /** the app's URL through the proxy (same hash routes as the direct one). */
  appUrl(hash?: string): string
  /** from now on, requests whose path (without query) is `path` get `rewrite`, until `clear`. */
  rewrite(path: string, rewrite: Rewrite): void
  clear(path?: string): void
  /** every exchange on `path` so far, in arrival order. */
  exchanges(path: string): ReadonlyArray<Exchange>
  close(): Promise<void>
}

const REWRITTEN_MSG = '测试代理改写的应答'

const bodyOf = (rule: Exclude<Rewrite, { readonly network: true } | { readonly delayMs: number }>) => {
  if ('data' in rule) return { status: 0, msg: '', data: rule.data }
  const status = 'httpStatus' in rule ? rule.httpStatus : rule.bodyStatus
  const msg = rule.msg === undefined ? REWRITTEN_MSG : rule.msg
  return msg === null ? { status, data: null } : { status, msg, data: null }
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })

export const startRewritingProxy = async (upstreamOrigin: string): Promise<RewritingProxy> => {
  const upstream = new URL(upstreamOrigin)
  const rules = new Map<string, Rewrite>()
  const log = new Map<string, Array<Exchange>>()
  const timers = new Set<NodeJS.Timeout>()
  const sockets = new Set<Socket>()

  const record = (method: string, path: string, rewritten: boolean): Exchange => {
    const exchange: Exchange = { method, path, answeredAt: -1, rewritten, body: '' }
    const list = log.get(path) ?? []
    list.push(exchange)
    log.set(path, list)
    return exchange
  }

  const relay = async (req: IncomingMessage, res: ServerResponse, exchange: Exchange | null): Promise<void> => {
    const body = await readBody(req)
    const up = httpRequest({
      host: upstream.hostname, port: upstream.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: upstream.host },
    }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers)
      const chunks: Array<Buffer> = []
      upRes.on('data', (c: Buffer) => {
        if (exchange) chunks.push(c)
        res.write(c)
      })
      upRes.on('end', () => {
        res.end()
        if (exchange) {
          // API answers are small uncompressed JSON; kept as text for assertions on what the app was told
          exchange.body = Buffer.concat(chunks).toString('utf8')
          exchange.answeredAt = Date.now()
        }
      })
    })
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    up.end(body)
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const rule = rules.get(path)
    const tracked = path.startsWith('/api/')
    if (rule === undefined) {
      void relay(req, res, tracked ? record(req.method ?? 'GET', path, false) : null)
      return
    }
    if ('delayMs' in rule) {
      const exchange = record(req.method ?? 'GET', path, false)
      const timer = setTimeout(() => {
        timers.delete(timer)
        void relay(req, res, exchange)
      }, rule.delayMs)
      timers.add(timer)
      return
    }
    const exchange = record(req.method ?? 'GET', path, true)
    req.resume()
    req.on('end', () => {
      if ('network' in rule) {
        res.socket?.destroy()
        exchange.answeredAt = Date.now()
        return
      }
      const body = JSON.stringify(bodyOf(rule))
      res.writeHead('httpStatus' in rule ? rule.httpStatus : 200, {
        'Content-Type': 'application/json',
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      })
      res.end(body, () => {
        exchange.body = body
        exchange.answeredAt = Date.now()
      })
    })
  })

  // Websockets (push, device stream): the upgrade request and everything after it are piped both ways unchanged.
  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const up = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`]
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? upstream.host : req.rawHeaders[i + 1]}`)
      }
      up.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length > 0) up.write(head)
      up.pipe(client)
      client.pipe(up)
    })
    for (const s of [up, client]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    up.on('error', () => client.destroy())
    client.on('error', () => up.destroy())
    up.on('close', () => client.destroy())
    client.on('close', () => up.destroy())
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    appUrl: (hash = '/') => `${origin}/cloud/phone/web/#${hash}`,
    rewrite: (path, rewrite) => void rules.set(path, rewrite),
    clear: (path) => (path === undefined ? rules.clear() : void rules.delete(path)),
    exchanges: (path) => log.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearTimeout)
        timers.clear()
        server.close(() => resolve())
        sockets.forEach((s) => s.destroy())
      }),
  }
}
