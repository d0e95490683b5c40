// The push socket's lifecycle (§4, §7, decisions.md): open while some tab is visible and a token and username exist,
// keepAlive on open and every heartbeat, reconnect after an error or unexpected close every reconnect interval, at
// most 5 attempts (a successful open resets the budget), close when the last visible tab hides or the session ends.
// Once the 5 are spent, a sign that the network may be back (the browser's `online`, a tab shown, a tab's new call)
// starts a fresh cycle: `kick` (decisions.md, issue 40).
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import { coreCall, HttpPipeline } from '../http/http-pipeline.ts'
import { DeviceList } from '../devices/device-list.ts'
import * as Fiber from 'effect/Fiber'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import type { PushStatus } from '../protocol/events.ts'
import { keepAliveFrame, PUSH_PATH } from '../protocol/push-wire.ts'
import { Background } from '../runtime/background.ts'
import { ensureDeviceStatId } from '../session/device-stat-id.ts'
import { SessionState } from '../session/session-state.ts'
import { Storage } from '../storage/storage.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { decodePushFrame } from './push-frame.ts'
import { joinApiPath } from '../http/request.ts'
import { PushRules } from './push-rules.ts'
import { PushSocket, type SocketConnection } from './push-socket.ts'

/** WebSocket close codes of a server that goes away on purpose (graceful shutdown, restart). */
const CLOSE_GOING_AWAY = 1001
const CLOSE_SERVICE_RESTART = 1012

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
  /**
   * A sign that the network may be back: when the last cycle's attempts are spent (the socket down and wanted), opens
   * now with a whole budget, the spec's 5 attempts 20 s apart behind it; otherwise (open, or a cycle still running)
   * nothing, so signs in a row never cut a cycle short nor try faster than the spec's interval.
   */
  readonly kick: () => void
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
      const http = yield* HttpPipeline
      const devices = yield* DeviceList

      let status: PushStatus = 'closed'
      /** an open socket went down: pushes sent meanwhile (a device list change among them) never arrive. */
      let missedPushes = false
      let attempts = 0
      /** the 5 attempts were spent: stay closed until a new session, the app shown again, or a kick. */
      let exhausted = false
      let generation = 0
      let conn: SocketConnection | null = null
      /** whose socket it is: a new session (a re-login as somebody else) gets a socket of its own. */
      let identity: string | null = null
      let heartbeat: Fiber.Fiber<void> | null = null
      let retry: Fiber.Fiber<void> | null = null
      let wasVisible = tabs.anyVisible()
      const hiddenTabIds = () => new Set(tabs.list().filter((t) => !t.visible).map((t) => t.tabId))
      let hiddenTabs = hiddenTabIds()
      let opened = 0
      let keepAlivesSent = 0
      let droppedFrames = 0

      const currentIdentity = () => {
        const s = session.current()
        return s.token !== null && s.token !== '' && s.username !== null && s.username !== '' ? `${s.username}\n${s.token}` : null
      }
      const wanted = () => currentIdentity() !== null && tabs.anyVisible()

      const setStatus = (next: PushStatus) => {
        const snap = hub.snapshot().push
        if (next === snap.status && snap.reconnectAttempts === attempts) return
        status = next
        hub.publish({ _tag: 'PushStatusChanged', status: next, reconnectAttempts: attempts })
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
        identity = null
        c?.close()
        status = 'closed'
        setStatus('closed')
      }

      const onDown = (gen: number, closeCode: number | null) => {
        if (gen !== generation) return
        generation += 1
        missedPushes = true
        stopFiber(heartbeat)
        heartbeat = null
        conn = null
        // a server instance going away on purpose (1001, 1012): reconnect without spending an attempt
        scheduleReconnect(closeCode !== CLOSE_GOING_AWAY && closeCode !== CLOSE_SERVICE_RESTART)
      }

      const scheduleReconnect = (spend: boolean) => {
        if (!wanted()) return shutdown()
        if (attempts >= config.reconnectMaxAttempts) {
          exhausted = true
          return shutdown()
        }
        setStatus('reconnecting')
        retry = background.run(
          Effect.sleep(config.reconnectMs).pipe(
            Effect.andThen(Effect.sync(() => {
              retry = null
              if (!wanted()) return shutdown()
              if (spend) attempts += 1
              open()
            })),
          ),
        )
      }

      const open = () => {
        const gen = ++generation
        const s = session.current()
        identity = currentIdentity()
        status = 'connecting'
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
                exhausted = false
                status = 'open'
                setStatus('open')
                sendKeepAlive()
                heartbeat = background.run(Effect.forever(Effect.andThen(Effect.sleep(config.heartbeatMs), Effect.sync(sendKeepAlive))))
                // the server is reachable again: keyed writes left unconfirmed by an outage are settled now (issue 40)
                background.run(http.resumeWrites)
                // a refreshCloudPhoneList sent while the socket was down is lost (no replay): the list is read again
                if (missedPushes) {
                  missedPushes = false
                  background.run(devices.refresh(coreCall))
                }
              },
              onMessage: (data) => {
                if (gen !== generation) return
                const frame = decodePushFrame(data)
                if (frame.kind === 'malformed') droppedFrames += 1
                else if (frame.kind === 'message') rules.handle(frame.message)
              },
              onDown: (code) => onDown(gen, code),
            })
          }),
        )
      }

      const kick = () => {
        if (!exhausted || !wanted()) return
        attempts = 0
        exhausted = false
        open()
      }

      /** Re-evaluates the socket on session and tab changes (decisions.md: the reconnect budget). */
      const reconcile = () => {
        const visible = tabs.anyVisible()
        const shown = visible && !wasVisible
        wasVisible = visible
        // a tab shown while another stayed visible: the app was not hidden as a whole, but the user is back at it
        const tabShown = tabs.list().some((t) => t.visible && hiddenTabs.has(t.tabId))
        hiddenTabs = hiddenTabIds()
        const id = currentIdentity()
        if (status !== 'closed' && identity !== id) {
          // a new session, or none: the old socket goes, and the new session starts with the whole budget
          shutdown()
        }
        if (shown || (id !== null && id !== lastSessionIdentity)) {
          attempts = 0
          exhausted = false
        }
        lastSessionIdentity = id
        if (wanted() && status === 'closed' && !exhausted) open()
        else if (!wanted() && status !== 'closed') shutdown()
        if (tabShown) kick()
      }
      let lastSessionIdentity = currentIdentity()

      session.subscribe(reconcile)
      tabs.subscribe(reconcile)
      return {
        reconcile,
        kick,
        stats: () => ({ status, reconnectAttempts: attempts, opened, keepAlivesSent, droppedFrames }),
      }
    }),
  )
}
