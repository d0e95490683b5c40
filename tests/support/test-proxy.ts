// The loopback proxy the browser and end-to-end tests put in front of the reference server, so a test can change what
// the app gets from it: answer one endpoint with an error (HTTP status, body status, a dropped connection) or hold it
// a while, count, refuse, drop and inject push frames, and see every API exchange. It relays everything else (the
// built app, the API, the /push and device-stream websockets) unchanged.
//
// Each test can have its own slice: requests under `/t/{id}/...` belong to scope `id` and reach the server without the
// prefix (browser tests give each test one, next to its own worker); anything else is the default scope. A test in
// Node drives a scope directly; a test in the browser does it over HTTP at `{scope base}/__proxy/...` (`stats`,
// `refuse?on=1`, `drop`, `push?count=N` with the frame as body, `delay?path=&ms=`, `rewrite?path=` with a Rewrite as
// JSON body, `clear?path=`, `exchanges?path=`: how many requests reached it). An app opened through the proxy is another origin than the server, so it has its own core
// (SharedWorker and IndexedDB); `cors` lets pages of other origins (the vitest page) call it.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { WebSocket, WebSocketServer, type RawData } from 'ws'
import { STREAM_PATH } from '../../worker/protocol/stream.ts'

/** How to answer a matching request instead of the server. */
export type Rewrite =
  /** this HTTP status, with a JSON body `{status, msg, data: null}` carrying the same code. */
  | { readonly httpStatus: number; readonly msg?: string }
  /** HTTP 200 with `{status: bodyStatus, msg, data: null}`: a catalogue error in the body; `msg: null` leaves it out. */
  | { readonly bodyStatus: number; readonly msg?: string | null }
  /** no reply at all: the connection is dropped (a transport failure). */
  | { readonly network: true }
  /** HTTP 200 with a success body `{status: 0, msg: '', data}`: what the server could have said; after `answerAfterMs`
   * (a request the server answered before a change, still on its way when the change is reported). */
  | { readonly data: unknown; readonly answerAfterMs?: number }
  /** the server's own answer, relayed after `delayMs`. */
  | { readonly delayMs: number }
  /** the request relayed at once, the server's answer held `holdAnswerMs` before the app gets it (an answer still on its
   * way when the app goes away: the server acted, the app never heard). */
  | { readonly holdAnswerMs: number }
  /** issue 40: the request relayed, the server's answer read in full, then the app's connection dropped (the server
   * acted, the app heard nothing); once, then the rule clears itself. */
  | { readonly cutAnswer: true }

export interface Exchange {
  readonly method: string
  readonly path: string
  /** Date.now() as the request reached the proxy. */
  readonly receivedAt: number
  /**
   * Date.now() as the proxy handed the answer's last bytes on (or -1 while pending): the app cannot have had it
   * sooner. Taken before the write, not in its callback, which a busy test process may run much later.
   */
  answeredAt: number
  readonly rewritten: boolean
  /** the body sent to the app (rewritten or relayed), as text; empty until answered. */
  body: string
}

export interface PushStats {
  /** websocket upgrade requests, refused ones included. */
  readonly upgrades: number
  /** of those, upgrades to the phone-stream path (STREAM_PATH). */
  readonly streamUpgrades: number
  readonly opened: number
  readonly keepAlives: number
  /** sockets open now. */
  readonly open: number
}

export interface ProxyScope {
  /** the app's URL through this scope (same hash routes as the direct one). */
  appUrl(hash?: string): string
  /** from now on, requests whose path (without query) is `path` get `rewrite`, until `clear`. */
  rewrite(path: string, rewrite: Rewrite): void
  clear(path?: string): void
  /** every API exchange on `path` so far, in arrival order. */
  exchanges(path: string): ReadonlyArray<Exchange>
  pushStats(): PushStats
  /** refuse new websockets (on) or accept them again. */
  refuse(on: boolean): void
  /** drops every open websocket of the scope. */
  drop(): void
  /** sends `frame` `count` times to every open websocket of the scope; the number of sockets. */
  send(frame: string, count?: number): number
}

export interface TestProxy extends ProxyScope {
  readonly origin: string
  /** the slice of requests under `/t/{id}/`. */
  scope(id: string): ProxyScope & { readonly base: string }
  close(): Promise<void>
}

const REWRITTEN_MSG = '测试代理改写的应答'
const DEFAULT_SCOPE = ''
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
}

const bodyOf = (rule: Exclude<Rewrite, { readonly network: true } | { readonly delayMs: number } | { readonly holdAnswerMs: number } | { readonly cutAnswer: true }>) => {
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

/** `/t/{id}/rest` → scope id and the path the server knows. */
const splitScope = (url: string): { readonly id: string; readonly rest: string } => {
  const m = /^\/t\/([^/]+)(\/.*)$/.exec(url)
  return m === null ? { id: DEFAULT_SCOPE, rest: url } : { id: m[1]!, rest: m[2]! }
}

/** Passes a close code on (the core treats 1001/1012 and 4401 differently); codes that cannot be sent just close. */
const closeWith = (ws: WebSocket, code: number, reason: Buffer) => {
  if (ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED) return
  if (ws.readyState === WebSocket.CONNECTING) return void ws.terminate()
  if (code === 1000 || (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999)) {
    ws.close(code, reason)
  } else {
    ws.close()
  }
}

interface ScopeState {
  readonly rules: Map<string, Rewrite>
  readonly log: Map<string, Array<Exchange>>
  readonly clients: Set<WebSocket>
  upgrades: number
  streamUpgrades: number
  opened: number
  keepAlives: number
  refuse: boolean
}

export const startTestProxy = async (upstreamOrigin: string, options: { readonly cors?: boolean } = {}): Promise<TestProxy> => {
  const upstream = new URL(upstreamOrigin)
  const cors = options.cors === true ? CORS : {}
  const scopes = new Map<string, ScopeState>()
  const timers = new Set<NodeJS.Timeout>()
  const sockets = new Set<Socket>()
  let origin = ''

  const stateOf = (id: string): ScopeState => {
    let s = scopes.get(id)
    if (s === undefined) {
      s = { rules: new Map(), log: new Map(), clients: new Set(), upgrades: 0, streamUpgrades: 0, opened: 0, keepAlives: 0, refuse: false }
      scopes.set(id, s)
    }
    return s
  }

  const record = (s: ScopeState, method: string, path: string, rewritten: boolean): Exchange => {
    const exchange: Exchange = { method, path, receivedAt: Date.now(), answeredAt: -1, rewritten, body: '' }
    const list = s.log.get(path) ?? []
    list.push(exchange)
    s.log.set(path, list)
    return exchange
  }

  const forwardHeaders = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    const out: IncomingHttpHeaders = { ...headers, host: upstream.host }
    // a page of another origin (cors): the server sees what a same-origin page would send
    if (options.cors === true) delete out.origin
    return out
  }

  const relay = async (req: IncomingMessage, res: ServerResponse, path: string, exchange: Exchange | null, holdAnswerMs = 0, cut = false): Promise<void> => {
    const body = await readBody(req)
    const up = httpRequest({
      host: upstream.hostname, port: upstream.port, method: req.method, path, headers: forwardHeaders(req.headers),
    }, (upRes) => {
      const chunks: Array<Buffer> = []
      const answer = () => {
        if (exchange) {
          // API answers are small uncompressed JSON; kept as text for assertions on what the app was told
          exchange.body = Buffer.concat(chunks).toString('utf8')
          exchange.answeredAt = Date.now()
        }
        if (cut) return void res.socket?.destroy()
        if (holdAnswerMs > 0) {
          res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, ...cors })
          res.write(Buffer.concat(chunks))
        }
        res.end()
      }
      const passThrough = holdAnswerMs === 0 && !cut
      if (passThrough) res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, ...cors })
      upRes.on('data', (c: Buffer) => {
        if (exchange || !passThrough) chunks.push(c)
        if (passThrough) res.write(c)
      })
      upRes.on('end', () => {
        if (holdAnswerMs === 0) return answer()
        const timer = setTimeout(() => {
          timers.delete(timer)
          answer()
        }, holdAnswerMs)
        timers.add(timer)
      })
    })
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, cors)
      res.end()
    })
    up.end(body)
  }

  const answer = (req: IncomingMessage, res: ServerResponse, rule: Exclude<Rewrite, { delayMs: number } | { holdAnswerMs: number } | { cutAnswer: true }>, exchange: Exchange) => {
    req.resume()
    req.on('end', () => {
      if ('network' in rule) {
        res.socket?.destroy()
        exchange.answeredAt = Date.now()
        return
      }
      const body = JSON.stringify(bodyOf(rule))
      const send = () => {
        res.writeHead('httpStatus' in rule ? rule.httpStatus : 200, {
          'Content-Type': 'application/json',
          'Cross-Origin-Opener-Policy': 'same-origin',
          'Cross-Origin-Embedder-Policy': 'require-corp',
          ...cors,
        })
        exchange.body = body
        exchange.answeredAt = Date.now()
        res.end(body)
      }
      const after = 'data' in rule ? rule.answerAfterMs ?? 0 : 0
      if (after <= 0) return send()
      const timer = setTimeout(() => {
        timers.delete(timer)
        send()
      }, after)
      timers.add(timer)
    })
  }

  const scopeApi = (id: string): ProxyScope => {
    const s = stateOf(id)
    const prefix = id === DEFAULT_SCOPE ? '' : `/t/${id}`
    return {
      appUrl: (hash = '/') => `${origin}${prefix}/cloud/phone/web/#${hash}`,
      rewrite: (path, rewrite) => void s.rules.set(path, rewrite),
      clear: (path) => (path === undefined ? s.rules.clear() : void s.rules.delete(path)),
      exchanges: (path) => s.log.get(path) ?? [],
      pushStats: () => ({ upgrades: s.upgrades, streamUpgrades: s.streamUpgrades, opened: s.opened, keepAlives: s.keepAlives, open: s.clients.size }),
      refuse: (on) => void (s.refuse = on),
      drop: () => s.clients.forEach((c) => c.terminate()),
      send: (frame, count = 1) => {
        for (let i = 0; i < count; i++) s.clients.forEach((c) => c.send(frame))
        return s.clients.size
      },
    }
  }

  /** The HTTP face of a scope, for tests running in the browser. */
  const control = async (req: IncomingMessage, res: ServerResponse, id: string, url: URL) => {
    const scope = scopeApi(id)
    const json = (v: unknown) => res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(v))
    const path = url.searchParams.get('path') ?? ''
    switch (url.pathname) {
      case '/__proxy/stats':
        return json(scope.pushStats())
      case '/__proxy/push':
        return json(scope.send((await readBody(req)).toString(), Number(url.searchParams.get('count') ?? 1)))
      case '/__proxy/refuse':
        scope.refuse(url.searchParams.get('on') === '1')
        break
      case '/__proxy/drop':
        scope.drop()
        break
      case '/__proxy/delay': {
        const ms = Number(url.searchParams.get('ms') ?? 0)
        if (ms > 0) scope.rewrite(path, { delayMs: ms })
        else scope.clear(path)
        break
      }
      case '/__proxy/rewrite':
        scope.rewrite(path, JSON.parse((await readBody(req)).toString()) as Rewrite)
        break
      case '/__proxy/exchanges':
        return json(scope.exchanges(path).length)
      case '/__proxy/clear':
        scope.clear(path === '' ? undefined : path)
        break
      default:
        return json(null)
    }
    return json(true)
  }

  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS' && options.cors === true) return void res.writeHead(204, CORS).end()
    const { id, rest } = splitScope(req.url ?? '/')
    const url = new URL(rest, 'http://proxy')
    if (url.pathname.startsWith('/__proxy/')) return void control(req, res, id, url)
    const s = stateOf(id)
    const rule = s.rules.get(url.pathname)
    const tracked = url.pathname.startsWith('/api/')
    const method = req.method ?? 'GET'
    if (rule === undefined) return void relay(req, res, rest, tracked ? record(s, method, url.pathname, false) : null)
    if ('holdAnswerMs' in rule) return void relay(req, res, rest, record(s, method, url.pathname, false), rule.holdAnswerMs)
    if ('cutAnswer' in rule) {
      s.rules.delete(url.pathname)
      return void relay(req, res, rest, record(s, method, url.pathname, false), 0, true)
    }
    if ('delayMs' in rule) {
      const exchange = record(s, method, url.pathname, false)
      const timer = setTimeout(() => {
        timers.delete(timer)
        void relay(req, res, rest, exchange)
      }, rule.delayMs)
      timers.add(timer)
      return
    }
    answer(req, res, rule, record(s, method, url.pathname, true))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  // Websockets (push, device stream): relayed frame by frame, so a scope can count, drop and add frames.
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false })
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const { id, rest } = splitScope(req.url ?? '/')
    const s = stateOf(id)
    s.upgrades += 1
    if (rest.startsWith(STREAM_PATH)) s.streamUpgrades += 1
    if (s.refuse) return void socket.destroy()
    wss.handleUpgrade(req, socket, head, (client) => {
      s.opened += 1
      s.clients.add(client)
      const protocols = req.headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()) ?? []
      const up = new WebSocket(`${upstream.origin.replace(/^http/, 'ws')}${rest}`, protocols, {
        headers: { 'user-agent': req.headers['user-agent'] ?? '' },
      })
      const pending: Array<{ data: RawData; binary: boolean }> = []
      up.on('open', () => pending.splice(0).forEach((m) => up.send(m.data, { binary: m.binary })))
      up.on('message', (data, binary) => {
        if (client.readyState === WebSocket.OPEN) client.send(data, { binary })
      })
      up.on('close', (code, reason) => closeWith(client, code, reason))
      up.on('error', () => client.terminate())
      client.on('message', (data, binary) => {
        if (!binary && data.toString().includes('"keepAlive"')) s.keepAlives += 1
        if (up.readyState === WebSocket.OPEN) up.send(data, { binary })
        else pending.push({ data, binary })
      })
      client.on('close', (code, reason) => {
        s.clients.delete(client)
        closeWith(up, code, reason)
      })
      client.on('error', () => up.terminate())
    })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    ...scopeApi(DEFAULT_SCOPE),
    origin,
    scope: (id) => ({ ...scopeApi(id), base: `${origin}/t/${id}` }),
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearTimeout)
        timers.clear()
        wss.clients.forEach((c) => c.terminate())
        server.close(() => resolve())
        sockets.forEach((s) => s.destroy())
      }),
  }
}
