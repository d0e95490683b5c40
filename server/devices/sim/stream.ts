// The simulated device stream: a websocket at SIM_STREAM_PATH authenticated by the card token a connect issued.
// Every viewer of a device shares one simulated phone; frames go out at the quality's rate and right after input.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import * as Schema from 'effect/Schema'
import { WebSocketServer, type WebSocket } from 'ws'
import { SIM_CLOSE, SIM_STREAM_PATH, SimInput } from '../../../worker/protocol/devices.ts'
import { CLOSE_POLICY_VIOLATION, inputGate, sendOrCut, type InputLimit } from '../../http/socket-limits.ts'
import { busyState } from '../busy.ts'
import type { DeviceClock } from '../clock.ts'
import type { DevicesDb } from '../tables.ts'
import { applyInput, FPS_BY_QUALITY, frameOf, initialPhone, type SimPhoneState } from './phone.ts'


interface Viewer {
  readonly ws: WebSocket
  readonly userId: number
}

interface Phone {
  state: SimPhoneState
  seq: number
  lastSent: number
  readonly viewers: Set<Viewer>
}

export interface SimStreamServer {
  /** takes the upgrade when it is for the simulated stream; false leaves it to others. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** closes the device's viewers (all, or one user's) with a close code. */
  kick(deviceId: number, code: number, userId?: number): void
  /** a factory reset: the phone starts again from its initial state. */
  resetPhone(deviceId: number): void
  viewerCount(deviceId: number): number
  close(): Promise<void>
}

const decodeInput = Schema.decodeUnknownOption(SimInput)
const TICK_MS = 33
/** Taps, keys and pings of a person (each input answers with a frame to every viewer): a flood closes the socket. */
export const SIM_INPUT_LIMIT: InputLimit = { burst: 60, perSecond: 30 }
/** A viewer this far behind reading frames is cut (it reconnects and starts from the current screen). */
export const SIM_MAX_BUFFERED_BYTES = 1024 * 1024
/**
 * Stream sockets one user may hold on this instance (issue 11 finding 11): a new one closes the oldest (1008), which
 * is most likely a viewer left open by a browser that went away; as for push sockets (push/local-sockets.ts).
 */
export const SIM_MAX_VIEWERS_PER_USER = 10

export const createSimStreamServer = (db: DevicesDb, clock: DeviceClock): SimStreamServer => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024, perMessageDeflate: false })
  const phones = new Map<number, Phone>()
  /** each user's open viewers, oldest first (a Set keeps insertion order). */
  const byUser = new Map<number, Set<WebSocket>>()

  const holdFor = (userId: number, ws: WebSocket): void => {
    const held = byUser.get(userId) ?? new Set<WebSocket>()
    byUser.set(userId, held)
    held.add(ws)
    if (held.size > SIM_MAX_VIEWERS_PER_USER) {
      const oldest = held.values().next().value!
      held.delete(oldest)
      oldest.close(CLOSE_POLICY_VIOLATION, 'too many streams')
    }
    ws.on('close', () => {
      held.delete(ws)
      if (held.size === 0 && byUser.get(userId) === held) byUser.delete(userId)
    })
  }

  const phoneOf = (deviceId: number): Phone => {
    let phone = phones.get(deviceId)
    if (!phone) {
      phone = { state: initialPhone, seq: 0, lastSent: 0, viewers: new Set() }
      phones.set(deviceId, phone)
    }
    return phone
  }

  const broadcast = (phone: Phone): void => {
    const now = clock.now()
    phone.seq += 1
    phone.lastSent = now
    const frame = JSON.stringify(frameOf(phone.state, phone.seq, now))
    for (const v of [...phone.viewers]) if (!sendOrCut(v.ws, frame, SIM_MAX_BUFFERED_BYTES) && v.ws.readyState !== v.ws.OPEN) phone.viewers.delete(v)
  }

  const timer = setInterval(() => {
    const now = clock.now()
    for (const phone of phones.values()) {
      if (phone.viewers.size === 0) continue
      if (now - phone.lastSent >= 1000 / FPS_BY_QUALITY[phone.state.quality]) broadcast(phone)
    }
  }, TICK_MS)
  timer.unref()

  const accept = (ws: WebSocket, deviceId: number, userId: number): void => {
    const phone = phoneOf(deviceId)
    const viewer: Viewer = { ws, userId }
    phone.viewers.add(viewer)
    holdFor(userId, ws)
    const allowed = inputGate(ws, SIM_INPUT_LIMIT)
    ws.on('message', (data, isBinary) => {
      if (!allowed()) return void phone.viewers.delete(viewer)
      if (isBinary) return
      let raw: unknown
      try {
        raw = JSON.parse(data.toString())
      } catch {
        return
      }
      const input = decodeInput(raw)
      if (input._tag === 'None') return
      if (input.value.type === 'ping') {
        sendOrCut(ws, JSON.stringify({ type: 'pong', t: input.value.t }), SIM_MAX_BUFFERED_BYTES)
        return
      }
      phone.state = applyInput(phone.state, input.value)
      broadcast(phone)
    })
    const drop = () => phone.viewers.delete(viewer)
    ws.on('close', drop)
    ws.on('error', drop)
    broadcast(phone)
  }

  const refuse = (request: IncomingMessage, socket: Duplex, head: Buffer, code: number, reason: string): void => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', () => undefined)
      ws.close(code, reason)
    })
  }

  /** The device and user the token was issued for, while that user still has access and it is not restarting. */
  const authorise = async (userCardId: number, cardToken: string): Promise<{ deviceId: number; userId: number } | 'busy' | null> => {
    const row = await db
      .selectFrom('device_sessions').innerJoin('devices', 'devices.id', 'device_sessions.device_id')
      .select(['devices.id as device_id', 'devices.owner_id', 'device_sessions.user_id', 'devices.user_card_id'])
      .where('device_sessions.card_token', '=', cardToken)
      .executeTakeFirst()
    if (!row || row.user_card_id !== userCardId) return null
    if (row.owner_id !== row.user_id) {
      const grant = await db.selectFrom('device_auths').select('id')
        .where('device_id', '=', row.device_id).where('grantee_id', '=', row.user_id).executeTakeFirst()
      if (!grant) return null
    }
    if (await busyState(db, row.device_id, clock)) return 'busy'
    return { deviceId: row.device_id, userId: row.user_id }
  }

  return {
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (url.pathname !== SIM_STREAM_PATH) return false
      socket.on('error', () => undefined)
      const userCardId = Number(url.searchParams.get('userCardId'))
      const cardToken = url.searchParams.get('cardToken') ?? ''
      void authorise(userCardId, cardToken).then(
        (result) => {
          if (socket.destroyed) return
          if (result === null) return refuse(request, socket, head, SIM_CLOSE.refused, 'refused')
          if (result === 'busy') return refuse(request, socket, head, SIM_CLOSE.restarting, 'restarting')
          wss.handleUpgrade(request, socket, head, (ws) => accept(ws, result.deviceId, result.userId))
        },
        () => socket.destroy(),
      )
      return true
    },
    kick(deviceId, code, userId) {
      const phone = phones.get(deviceId)
      if (!phone) return
      for (const v of [...phone.viewers]) {
        if (userId !== undefined && v.userId !== userId) continue
        phone.viewers.delete(v)
        v.ws.close(code)
      }
    },
    resetPhone(deviceId) {
      const phone = phones.get(deviceId)
      if (phone) phone.state = initialPhone
    },
    viewerCount(deviceId) {
      return phones.get(deviceId)?.viewers.size ?? 0
    },
    async close() {
      clearInterval(timer)
      for (const ws of wss.clients) ws.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
