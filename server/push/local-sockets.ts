// The /push websockets held by this instance: authenticates an upgrade from the query (deviceId, username,
// Authorization), answers keepAlive frames, keeps the live sockets per user, and delivers a frame to them.
// Bad frames are ignored. Which instance holds which socket is none of the others' business: they reach it through
// the cluster hub (hub.ts).
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { keepAliveFrame } from '../../worker/protocol/push-wire.ts'
import type { Auth, PushUserStats } from '../context.ts'
import { CLOSE_POLICY_VIOLATION, inputGate, sendOrCut, type InputLimit } from '../http/socket-limits.ts'

/** Close code for a refused socket (bad or missing token, or token of another user). */
export const CLOSE_UNAUTHORIZED = 4401

/** A tab's core sends one keepAlive every 8 s; a peer sending more than this is closed (socket-limits.ts). */
export const PUSH_INPUT_LIMIT: InputLimit = { burst: 10, perSecond: 1 }
/** A reader this far behind (pushes queued for it and not read) is cut. */
export const PUSH_MAX_BUFFERED_BYTES = 1024 * 1024
/**
 * Sockets of one user on one instance by default (one per browser profile's core, one per tab where a browser has no
 * SharedWorker); a new one past it closes the user's oldest here, the one most likely left behind by a browser that
 * went away without closing it. MAX_PUSH_SOCKETS_PER_USER in the environment changes it (the fan-out bench).
 */
export const MAX_PUSH_SOCKETS_PER_USER = 20
/** setTimeout's longest delay; a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1

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
  /**
   * closes, as unauthorised, every socket here opened with a token of these digests (`tokenDigest`), sending `frame`
   * first when given; how many.
   */
  closeTokens(digests: ReadonlyArray<string>, frame?: string): number
  stats(): ReadonlyArray<PushUserStats>
  liveCount(): number
  /** closes every socket with the code and waits until they are gone (at most `graceMs`, then they are cut). */
  closeAll(code: number, graceMs: number): Promise<void>
}

/**
 * What names a token between instances: revoked tokens are closed on every instance through the bus, and the bus
 * (a NOTIFY any database user may LISTEN to) carries this digest, never the token.
 */
export const tokenDigest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')

const isKeepAlive = (raw: string): boolean => {
  try {
    const frame = JSON.parse(raw)
    return typeof frame === 'object' && frame !== null && frame.type === 'keepAlive'
  } catch {
    return false
  }
}

export const createLocalSockets = (auth: Auth, options: { readonly maxSocketsPerUser?: number } = {}): LocalSockets => {
  const maxSocketsPerUser = options.maxSocketsPerUser ?? MAX_PUSH_SOCKETS_PER_USER
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false })
  const users = new Map<string, UserEntry>()
  /** the sockets opened with each token (by digest), so a revoked token's sockets can be closed. */
  const byToken = new Map<string, Set<WebSocket>>()
  const forgetters = new WeakMap<WebSocket, () => void>()
  /**
   * Digests revoked lately: an upgrade whose token was checked just before the revocation committed is refused when
   * it completes after the close went out (a minute covers any such upgrade).
   */
  const revoked = new Map<string, number>()
  const REVOKED_MEMORY_MS = 60_000
  const wasRevoked = (digest: string): boolean => {
    const at = revoked.get(digest)
    return at !== undefined && Date.now() - at < REVOKED_MEMORY_MS
  }

  const entryFor = (username: string, phone: string): UserEntry => {
    let entry = users.get(username)
    if (!entry) {
      entry = { username, phone, sockets: new Set(), opened: 0, keepAlives: 0 }
      users.set(username, entry)
    }
    entry.phone = phone
    return entry
  }

  const register = (ws: WebSocket, entry: UserEntry, digest: string, expiresAt: number | undefined): void => {
    entry.sockets.add(ws)
    entry.opened += 1
    const ofToken = byToken.get(digest) ?? new Set<WebSocket>()
    ofToken.add(ws)
    byToken.set(digest, ofToken)
    // a token that expires while its socket is open closes it then (issue 22 finding 15)
    let expiry: NodeJS.Timeout | undefined
    const watchExpiry = () => {
      if (expiresAt === undefined) return
      const left = expiresAt - Date.now()
      if (left <= 0) {
        ws.close(CLOSE_UNAUTHORIZED, 'expired')
        return forget()
      }
      expiry = setTimeout(watchExpiry, Math.min(left, MAX_TIMER_MS))
      expiry.unref()
    }
    const forget = () => {
      clearTimeout(expiry)
      entry.sockets.delete(ws)
      ofToken.delete(ws)
      if (ofToken.size === 0 && byToken.get(digest) === ofToken) byToken.delete(digest)
    }
    const allowed = inputGate(ws, PUSH_INPUT_LIMIT)
    ws.on('message', (data, isBinary) => {
      if (!allowed()) return forget()
      if (isBinary) return
      if (!isKeepAlive(data.toString())) return
      entry.keepAlives += 1
      sendOrCut(ws, keepAliveFrame(), PUSH_MAX_BUFFERED_BYTES)
    })
    forgetters.set(ws, forget)
    ws.on('close', forget)
    ws.on('error', forget)
    watchExpiry()
    if (entry.sockets.size > maxSocketsPerUser) {
      const [oldest] = entry.sockets
      oldest?.close(CLOSE_POLICY_VIOLATION, 'too many connections')
      if (oldest) forgetters.get(oldest)?.()
    }
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
    const { username: name, phone, expiresAt } = user
    const digest = tokenDigest(user.token)
    if (wasRevoked(digest)) return refuse(request, socket, head)
    wss.handleUpgrade(request, socket, head, (ws) => register(ws, entryFor(name, phone), digest, expiresAt))
  }

  return {
    accept(request, socket, head) {
      void onUpgrade(request, socket, head)
    },
    deliver(username, frame) {
      const entry = users.get(username)
      if (!entry) return 0
      let sent = 0
      for (const ws of [...entry.sockets]) {
        if (sendOrCut(ws, frame, PUSH_MAX_BUFFERED_BYTES)) sent += 1
        else if (ws.readyState !== ws.OPEN) forgetters.get(ws)?.()
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
    closeTokens(digests, frame) {
      let closed = 0
      const now = Date.now()
      for (const [digest, at] of revoked) if (now - at >= REVOKED_MEMORY_MS) revoked.delete(digest)
      for (const digest of digests) {
        revoked.set(digest, now)
        for (const ws of [...(byToken.get(digest) ?? [])]) {
          if (frame !== undefined) sendOrCut(ws, frame, PUSH_MAX_BUFFERED_BYTES)
          ws.close(CLOSE_UNAUTHORIZED, 'unauthorized')
          // gone at once, not at the end of the close handshake: a push sent next does not count it
          forgetters.get(ws)?.()
          closed += 1
        }
      }
      return closed
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
