// The push socket's lifecycle (§4, §7, decisions.md): open while some tab is visible and a token and username exist,
// keepAlive on open and every heartbeat, reconnect after an error or unexpected close every reconnect interval, at
// most 5 attempts (a successful open resets the budget), close when the last visible tab hides or the session ends.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Fiber from 'effect/Fiber'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import type { PushStatus } from '../protocol/events.ts'
import { keepAliveFrame, PUSH_PATH } from '../protocol/push.ts'
import { Background } from '../runtime/background.ts'
import { ensureDeviceStatId } from '../session/device-stat-id.ts'
import { SessionState } from '../session/session-state.ts'
import { Storage } from '../storage/storage.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { decodePushFrame } from './push-frame.ts'
import { joinApiPath } from '../http/request.ts'
import { PushRules } from './push-rules.ts'
import { PushSocket, type SocketConnection } from './push-socket.ts'

export interface PushStats {
  readonly status: PushStatus
  readonly reconnectAttempts: number
  readonly opened: number
  readonly keepAlivesSent: number
  readonly droppedFrames: number
}

export interface PushConnectionShape {
  /** re-evaluates whether the socket should be open (called on visibility and session changes). */
  readonly reconcile: () => void
  readonly stats: () => PushStats
}

export const pushUrl = (apiBaseUrl: string, q: { deviceId: string; username: string; token: string }): string => {
  const url = new URL(joinApiPath(apiBaseUrl, PUSH_PATH))
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  url.searchParams.set('deviceId', q.deviceId)
  url.searchParams.set('username', q.username)
  url.searchParams.set('Authorization', q.token)
  return url.toString()
}

export class PushConnection extends Context.Service<PushConnection, PushConnectionShape>()('cloud-phone/PushConnection') {
  static readonly layer = Layer.effect(
    PushConnection,
    Effect.gen(function* () {
      const config = yield* CoreConfig
      const session = yield* SessionState
      const tabs = yield* TabRegistry
      const hub = yield* EventHub
      const storage = yield* Storage
      const openSocket = yield* PushSocket
      const rules = yield* PushRules
      const background = yield* Background

      let status: PushStatus = 'closed'
      let attempts = 0
      let generation = 0
      let conn: SocketConnection | null = null
      let heartbeat: Fiber.Fiber<void> | null = null
      let retry: Fiber.Fiber<void> | null = null
      let opened = 0
      let keepAlivesSent = 0
      let droppedFrames = 0

      const hasIdentity = () => {
        const s = session.current()
        return s.token !== null && s.token !== '' && s.username !== null && s.username !== ''
      }
      const wanted = () => hasIdentity() && tabs.anyVisible()

      const setStatus = (next: PushStatus) => {
        if (next === status && hub.snapshot().push.reconnectAttempts === attempts) return
        status = next
        background.run(Effect.asVoid(hub.publish({ _tag: 'PushStatusChanged', status: next, reconnectAttempts: attempts })))
      }
      const stopFiber = (f: Fiber.Fiber<void> | null) => {
        if (f !== null) background.run(Fiber.interrupt(f))
      }
      const sendKeepAlive = () => {
        if (conn === null) return
        conn.send(keepAliveFrame())
        keepAlivesSent += 1
      }

      const shutdown = () => {
        generation += 1
        stopFiber(heartbeat)
        stopFiber(retry)
        heartbeat = null
        retry = null
        const c = conn
        conn = null
        c?.close()
        attempts = 0
        setStatus('closed')
      }

      const onDown = (gen: number) => {
        if (gen !== generation) return
        generation += 1
        stopFiber(heartbeat)
        heartbeat = null
        conn = null
        scheduleReconnect()
      }

      const scheduleReconnect = () => {
        if (!hasIdentity() || attempts >= config.reconnectMaxAttempts || !tabs.anyVisible()) {
          attempts = hasIdentity() ? attempts : 0
          setStatus('closed')
          return
        }
        setStatus('reconnecting')
        retry = background.run(
          Effect.sleep(config.reconnectMs).pipe(
            Effect.andThen(Effect.sync(() => {
              retry = null
              if (!wanted()) return shutdown()
              attempts += 1
              open()
            })),
          ),
        )
      }

      const open = () => {
        const gen = ++generation
        const s = session.current()
        setStatus('connecting')
        background.run(
          Effect.gen(function* () {
            const deviceId = yield* ensureDeviceStatId(storage)
            if (gen !== generation) return
            const url = pushUrl(config.apiBaseUrl, { deviceId, username: s.username ?? '', token: s.token ?? '' })
            conn = openSocket(url, {
              onOpen: () => {
                if (gen !== generation) return
                opened += 1
                attempts = 0
                setStatus('open')
                sendKeepAlive()
                heartbeat = background.run(Effect.forever(Effect.andThen(Effect.sleep(config.heartbeatMs), Effect.sync(sendKeepAlive))))
              },
              onMessage: (data) => {
                if (gen !== generation) return
                const frame = decodePushFrame(data)
                if (frame.kind === 'malformed') droppedFrames += 1
                else if (frame.kind === 'message') background.run(rules.handle(frame.message))
              },
              onDown: () => onDown(gen),
            })
          }),
        )
      }

      const reconcile = () => {
        const want = wanted()
        if (want && status === 'closed') {
          attempts = 0
          open()
        } else if (!want && status !== 'closed') shutdown()
      }

      session.subscribe(reconcile)
      tabs.subscribe(reconcile)
      return {
        reconcile,
        stats: () => ({ status, reconnectAttempts: attempts, opened, keepAlivesSent, droppedFrames }),
      }
    }),
  )
}
