// The /push websockets held by this instance: authenticates an upgrade from the query (deviceId, username,
// Authorization), answers keepAlive frames, keeps the live sockets per user, and delivers a frame to them.
// Bad frames are ignored. Which instance holds which socket is none of the others' business: they reach it through
// the cluster hub (hub.ts).
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { keepAliveFrame } from '../../worker/protocol/push.ts'
import type { Auth, PushUserStats } from '../context.ts'

/** Close code for a refused socket (bad or missing token, or token of another user). */
export const CLOSE_UNAUTHORIZED = 4401

interface UserEntry {
  username: string
  phone: string
  sockets: Set<WebSocket>
  opened: number
  keepAlives: number
}

export interface LocalSockets {
  /** authenticates and accepts (or refuses with 4401) a /push upgrade. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void
  /** sends the frame to every open socket of the user here; how many got it. */
  deliver(username: string, frame: string): number
  /** closes every socket of the user here with the code; how many. */
  disconnect(username: string, code: number): number
  stats(): ReadonlyArray<PushUserStats>
  liveCount(): number
  /** closes every socket with the code and waits until they are gone (at most `graceMs`, then they are cut). */
  closeAll(code: number, graceMs: number): Promise<void>
}

const isKeepAlive = (raw: string): boolean => {
  try {
    const frame = JSON.parse(raw)
    return typeof frame === 'object' && frame !== null && frame.type === 'keepAlive'
  } catch {
    return false
  }
}

export const createLocalSockets = (auth: Auth): LocalSockets => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false })
  const users = new Map<string, UserEntry>()

  const entryFor = (username: string, phone: string): UserEntry => {
    let entry = users.get(username)
    if (!entry) {
      entry = { username, phone, sockets: new Set(), opened: 0, keepAlives: 0 }
      users.set(username, entry)
    }
    entry.phone = phone
    return entry
  }

  const register = (ws: WebSocket, entry: UserEntry): void => {
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

  const onUpgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    socket.on('error', () => undefined)
    const url = new URL(request.url ?? '/', 'http://localhost')
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
    const { username: name, phone } = user
    wss.handleUpgrade(request, socket, head, (ws) => register(ws, entryFor(name, phone)))
  }

  return {
    accept(request, socket, head) {
      void onUpgrade(request, socket, head)
    },
    deliver(username, frame) {
      const entry = users.get(username)
      if (!entry) return 0
      let sent = 0
      for (const ws of entry.sockets) {
        if (ws.readyState !== ws.OPEN) continue
        ws.send(frame)
        sent += 1
      }
      return sent
    },
    disconnect(username, code) {
      const entry = users.get(username)
      if (!entry) return 0
      const sockets = [...entry.sockets]
      for (const ws of sockets) ws.close(code)
      return sockets.length
    },
    stats() {
      return [...users.values()].map((e) => ({
        username: e.username, phone: e.phone, live: e.sockets.size, opened: e.opened, keepAlives: e.keepAlives,
      }))
    },
    liveCount() {
      let n = 0
      for (const e of users.values()) n += e.sockets.size
      return n
    },
    async closeAll(code, graceMs) {
      const open = [...wss.clients]
      await new Promise<void>((resolve) => {
        let left = open.length
        if (left === 0) return resolve()
        const timer = setTimeout(() => {
          for (const ws of open) ws.terminate()
          resolve()
        }, graceMs)
        for (const ws of open) {
          ws.once('close', () => {
            left -= 1
            if (left === 0) {
              clearTimeout(timer)
              resolve()
            }
          })
          ws.close(code, 'server restart')
        }
      })
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
