// A loopback proxy in front of the backend for browser tests: adds CORS (the core's origin is the vitest server),
// relays /push per test (path prefix /t/{testId}) and lets a test count, inject and drop push frames.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'

interface TestPush {
  upgrades: number
  opened: number
  keepAlives: number
  refuse: boolean
  clients: Set<WebSocket>
  /** upstream paths answered this many ms late (a call in flight when the worker dies). */
  delays: Map<string, number>
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
  })

export const startTestProxy = async (upstream: string): Promise<{ url: string; close: () => Promise<void> }> => {
  const tests = new Map<string, TestPush>()
  const push = (id: string) => {
    let t = tests.get(id)
    if (t === undefined) {
      t = { upgrades: 0, opened: 0, keepAlives: 0, refuse: false, clients: new Set(), delays: new Map() }
      tests.set(id, t)
    }
    return t
  }
  const split = (url: string) => {
    const m = /^\/t\/([^/]+)(\/.*)$/.exec(url)
    return m === null ? { id: '_', rest: url } : { id: m[1], rest: m[2] }
  }

  const server: Server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') return res.writeHead(204, CORS).end()
    const { id, rest } = split(req.url ?? '/')
    const json = (v: unknown) => res.writeHead(200, { ...CORS, 'Content-Type': 'application/json' }).end(JSON.stringify(v))
    if (rest.startsWith('/__proxy/')) {
      const t = push(id)
      const u = new URL(rest, 'http://x')
      if (u.pathname === '/__proxy/stats') return json({ upgrades: t.upgrades, opened: t.opened, keepAlives: t.keepAlives, open: t.clients.size })
      if (u.pathname === '/__proxy/refuse') { t.refuse = u.searchParams.get('on') === '1'; return json(true) }
      if (u.pathname === '/__proxy/drop') { t.clients.forEach((c) => c.terminate()); return json(true) }
      if (u.pathname === '/__proxy/push') {
        const frame = (await readBody(req)).toString()
        const count = Number(u.searchParams.get('count') ?? 1)
        for (let i = 0; i < count; i++) t.clients.forEach((c) => c.send(frame))
        return json(t.clients.size)
      }
      if (u.pathname === '/__proxy/delay') {
        t.delays.set(u.searchParams.get('path') ?? '', Number(u.searchParams.get('ms') ?? 0))
        return json(true)
      }
      return json(null)
    }
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req)
    const delay = tests.get(id)?.delays.get(new URL(rest, 'http://x').pathname) ?? 0
    if (delay > 0) await new Promise((r) => setTimeout(r, delay))
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'origin') headers[k] = v
    try {
      const r = await fetch(upstream + rest, { method: req.method, headers, body: body === undefined ? undefined : new Uint8Array(body) })
      res.writeHead(r.status, { ...CORS, 'Content-Type': r.headers.get('content-type') ?? 'application/json' })
      res.end(Buffer.from(await r.arrayBuffer()))
    } catch {
      res.writeHead(502, CORS).end()
    }
  })

  const wss = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    const { id, rest } = split(req.url ?? '/')
    const t = push(id)
    t.upgrades += 1
    if (t.refuse || !rest.startsWith('/push')) return socket.destroy()
    wss.handleUpgrade(req, socket, head, (client) => {
      t.opened += 1
      t.clients.add(client)
      const up = new WebSocket(upstream.replace(/^http/, 'ws') + rest)
      const pending: Array<string> = []
      up.on('open', () => pending.splice(0).forEach((m) => up.send(m)))
      up.on('message', (m) => client.readyState === WebSocket.OPEN && client.send(m.toString()))
      up.on('close', () => client.close())
      up.on('error', () => client.terminate())
      client.on('message', (m) => {
        const text = m.toString()
        if (text.includes('"keepAlive"')) t.keepAlives += 1
        if (up.readyState === WebSocket.OPEN) up.send(text)
        else pending.push(text)
      })
      client.on('close', () => {
        t.clients.delete(client)
        up.close()
      })
    })
  })

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => {
      wss.clients.forEach((c) => c.terminate())
      server.close(() => r())
      server.closeAllConnections()
    }),
  }
}
