// The /push websocket: authenticates from the query (deviceId, username, Authorization), answers keepAlive frames,
// tracks live connections per user and fans pushed messages out to all of them. Bad frames are ignored.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { keepAliveFrame, PUSH_PATH, type PushMessage } from '../../worker/protocol/push.ts'
import type { Auth, PushHub, PushUserStats } from '../context.ts'

/** Close code for a refused socket (bad or missing token, or token of another user). */
export const CLOSE_UNAUTHORIZED = 4401

interface UserEntry {
  username: string
  phone: string
  sockets: Set<WebSocket>
  opened: number
  keepAlives: number
}

export interface PushServer extends PushHub {
  /** takes the upgrade when it is for /push (true), else leaves the socket alone (false). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** stops accepting and closes every socket. */
  close(): Promise<void>
}

const isKeepAlive = (raw: string): boolean => {
  try {
    const frame = JSON.parse(raw)
    return typeof frame === 'object' && frame !== null && frame.type === 'keepAlive'
  } catch {
    return false
  }
}

export const createPushHub = (auth: Auth): PushServer => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false })
  const users = new Map<string, UserEntry>()
  const byPhone = new Map<string, string>()
  /** the token each socket was opened with, so a revoked token's sockets can be closed. */
  const tokenOf = new WeakMap<WebSocket, string>()
  let closing: Promise<void> | null = null

  const entryFor = (username: string, phone: string): UserEntry => {
    let entry = users.get(username)
    if (!entry) {
      entry = { username, phone, sockets: new Set(), opened: 0, keepAlives: 0 }
      users.set(username, entry)
    }
    byPhone.set(phone, username)
    return entry
  }

  const lookup = async (usernameOrPhone: string): Promise<UserEntry | undefined> => {
    const direct = users.get(usernameOrPhone) ?? users.get(byPhone.get(usernameOrPhone) ?? '')
    if (direct) return direct
    const user = await auth.findUser(usernameOrPhone)
    return user ? users.get(user.username) : undefined
  }

  const accept = (ws: WebSocket, entry: UserEntry): void => {
    entry.sockets.add(ws)
    entry.opened += 1
    ws.on('message', (data, isBinary) => {
      if (isBinary) return
      if (!isKeepAlive(data.toString())) return
      entry.keepAlives += 1
      if (ws.readyState === ws.OPEN) ws.send(keepAliveFrame())
    })
    ws.on('close', () => entry.sockets.delete(ws))
    ws.on('error', () => entry.sockets.delete(ws))
  }

  const refuse = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', () => undefined)
      ws.close(CLOSE_UNAUTHORIZED, 'unauthorized')
    })
  }

  const onUpgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> => {
    socket.on('error', () => undefined)
    const username = url.searchParams.get('username') ?? ''
    const token = url.searchParams.get('Authorization') ?? ''
    let user = null
    try {
      user = await auth.userFromToken(token)
    } catch {
      user = null
    }
    if (socket.destroyed) return
    if (!user || (user.username !== username && user.phone !== username)) return refuse(request, socket, head)
    wss.handleUpgrade(request, socket, head, (ws) => {
      tokenOf.set(ws, user.token)
      accept(ws, entryFor(user.username, user.phone))
    })
  }

  return {
    handleUpgrade(request, socket, head) {
      if (closing) return false
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (url.pathname !== PUSH_PATH) return false
      void onUpgrade(request, socket, head, url)
      return true
    },
    async send(usernameOrPhone, message: PushMessage) {
      const entry = await lookup(usernameOrPhone)
      if (!entry) return 0
      const frame = JSON.stringify(message)
      let sent = 0
      for (const ws of entry.sockets) {
        if (ws.readyState !== ws.OPEN) continue
        ws.send(frame)
        sent += 1
      }
      return sent
    },
    async disconnect(usernameOrPhone, code = 1000) {
      const entry = await lookup(usernameOrPhone)
      if (!entry) return 0
      const sockets = [...entry.sockets]
      for (const ws of sockets) ws.close(code)
      return sockets.length
    },
    async closeTokens(tokens) {
      const revoked = new Set(tokens)
      let closed = 0
      for (const entry of users.values()) {
        for (const ws of entry.sockets) {
          if (!revoked.has(tokenOf.get(ws) ?? '')) continue
          ws.close(CLOSE_UNAUTHORIZED, 'unauthorized')
          entry.sockets.delete(ws)
          closed += 1
        }
      }
      return closed
    },
    stats(): ReadonlyArray<PushUserStats> {
      return [...users.values()].map((e) => ({
        username: e.username, phone: e.phone, live: e.sockets.size, opened: e.opened, keepAlives: e.keepAlives,
      }))
    },
    liveCount() {
      let n = 0
      for (const e of users.values()) n += e.sockets.size
      return n
    },
    async close() {
      if (closing) return closing
      for (const ws of wss.clients) ws.terminate()
      closing = new Promise<void>((resolve) => wss.close(() => resolve()))
      return closing
    },
  }
}
