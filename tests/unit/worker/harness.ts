// Builds a core on test layers (memory storage, scripted fetch, fake socket, manual tab locks, test clock) and
// gives tests handles on what it did: requests, delivered events per tab, sockets.
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import * as TestClock from 'effect/testing/TestClock'
import { defaultCoreConfig, type CoreConfigShape } from '../../../worker/config/core-config.ts'
import { makeCoreLayer, makeTestEdges } from '../../../worker/runtime/core-layer.ts'
import type { CoreServices } from '../../../worker/api/core-api.ts'
import { launchCore, launchTab, prepareStorage } from '../../../worker/runtime/startup.ts'
import type { SocketHandlers } from '../../../worker/push/push-socket.ts'
import type { TestPort } from '../../../worker/events/event-hub.ts'
import type { DownBatch, Snapshot, TabHello, TabRoute } from '../../../worker/protocol/commands.ts'
import { createReceiver, type Receiver } from '../../../src/core/receiver.ts'
import type { Delivered } from '../../../worker/protocol/events.ts'
import { envelope } from '../../../worker/protocol/envelope.ts'
import { TabRegistry } from '../../../worker/tabs/tab-registry.ts'
import { EventHub } from '../../../worker/events/event-hub.ts'
import { decodeBatch } from '../../../worker/protocol/batch-codec.ts'
// the pipeline loads the catalogue on first use; loaded once here, a call's outcome is one microtask away as in the app
await import('../../../worker/http/wire.ts')
import type { PersistedState } from '../../../worker/storage/storage.ts'

export const API = 'http://api.test'

export interface RecordedRequest {
  readonly url: URL
  readonly method: string
  readonly headers: Record<string, string>
  readonly body: unknown
}

/** What a scripted endpoint answers: an envelope body (HTTP 200), or a raw status/body. */
export type Reply = { readonly http?: number; readonly body: unknown } | { readonly network: true }
export type Route = (req: RecordedRequest) => Reply | Promise<Reply>

export const ok = (data: unknown): Reply => ({ body: envelope(0, data) })
export const code = (status: number, msg = '', data: unknown = null): Reply => ({ body: { status, success: false, msg, data } })

export interface FakeSocket {
  readonly url: URL
  readonly sent: Array<string>
  closed: boolean
  readonly handlers: SocketHandlers
  readonly open: () => void
  readonly receive: (frame: unknown) => void
  readonly drop: (closeCode?: number) => void
}

export interface FakeTab {
  readonly tabId: string
  readonly port: TestPort
  /** every item of every batch, in order (state events with their seq, effects with seq null). */
  readonly received: Array<Delivered>
  readonly raw: Array<DownBatch>
  readonly snapshots: Array<Snapshot>
  /** the tab's own copy of the state, folded by the real receiver (src/core/receiver.ts). */
  readonly receiver: Receiver
  /** stops acknowledging batches (a frozen tab). */
  frozen: boolean
}

export const defaultRoutes: Record<string, Route> = {
  '/api/public/v1/room/getRoomMaintenanceMsg': () => ok({ maintenanceSwitch: false, maintenanceContent: '', showTime: '' }),
  '/api/public/v1/system/config': () => ok({ systemName: '星云' }),
  '/api/resources/v6/client/device/info/getDeviceList': () => ok([]),
  '/api/pay/v2/meal/info/tab/list': () => ok([]),
  '/api/user/v5/visitDetailed/operationVisitDetailed': () => ok(77),
}

export const homeRoute: TabRoute = { path: '/pages/index/index', search: {} }

export interface Harness {
  readonly requests: Array<RecordedRequest>
  readonly sockets: Array<FakeSocket>
  readonly routes: Record<string, Route>
  readonly tabs: Map<string, FakeTab>
  readonly gone: (tabId: string) => void
  readonly addTab: (tabId: string, hello?: Partial<TabHello>) => Effect.Effect<FakeTab, never, CoreServices>
  readonly requestsTo: (path: string) => Array<RecordedRequest>
}

export interface HarnessOptions {
  readonly storage?: Record<string, unknown>
  /** the projection an earlier run of the core persisted. */
  readonly persisted?: PersistedState | null
  readonly routes?: Record<string, Route>
  readonly config?: Partial<CoreConfigShape>
  /** skip the launch requests (maintenance poll, system name, ...) to keep a test focused. */
  readonly launch?: boolean
}

/** Lets microtasks and already-due fibers run (port flushes are microtasks). */
export const settle = Effect.promise(() => new Promise<void>((r) => setTimeout(r, 0)))

/**
 * Settles until `done` holds: a first call loads the pipeline's chunk (a dynamic import), so a request is not always
 * out after one settle on a loaded machine.
 */
export const settleUntil = (done: () => boolean, what: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 500 && !done(); i++) yield* settle
    if (!done()) return yield* Effect.die(new Error(`never happened: ${what}`))
  })

export const runCore = <A>(
  options: HarnessOptions,
  body: (h: Harness) => Effect.Effect<A, never, CoreServices>,
): Promise<A> => {
  const requests: Array<RecordedRequest> = []
  const sockets: Array<FakeSocket> = []
  const routes: Record<string, Route> = { ...defaultRoutes, ...options.routes }
  const watchers = new Map<string, () => void>()
  const tabs = new Map<string, FakeTab>()

  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const req: RecordedRequest = {
      url: new URL(url),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    }
    requests.push(req)
    const route = routes[req.url.pathname]
    const reply: Reply = route === undefined ? { http: 404, body: 'not found' } : await route(req)
    if ('network' in reply) throw new TypeError('Failed to fetch')
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
    return new Response(text, { status: reply.http ?? 200 })
  }

  const socket = (url: string, handlers: SocketHandlers) => {
    const s: FakeSocket = {
      url: new URL(url), sent: [], closed: false, handlers,
      open: () => handlers.onOpen(),
      receive: (frame) => handlers.onMessage(typeof frame === 'string' ? frame : JSON.stringify(frame)),
      drop: (closeCode = 1006) => handlers.onDown(closeCode),
    }
    sockets.push(s)
    return { send: (t: string) => void s.sent.push(t), close: () => { s.closed = true } }
  }

  const config = { ...defaultCoreConfig(API), ...options.config }
  const layer = makeCoreLayer(config, makeTestEdges({
    storage: options.storage,
    persisted: options.persisted ?? null,
    fetch,
    socket,
    watchGone: (tabId, onGone) => {
      watchers.set(tabId, onGone)
      return () => void watchers.delete(tabId)
    },
  }))

  const h: Harness = {
    requests, sockets, routes, tabs,
    gone: (tabId) => watchers.get(tabId)?.(),
    requestsTo: (path) => requests.filter((r) => r.url.pathname === path),
    addTab: (tabId, hello) =>
      Effect.gen(function* () {
        const registry = yield* TabRegistry
        const hub = yield* EventHub
        const raw: Array<DownBatch> = []
        const received: Array<Delivered> = []
        const snapshots: Array<Snapshot> = []
        const port: TestPort = { onmessage: null, postMessage: () => {}, close: () => {} }
        const receiver = createReceiver({
          onState: () => {},
          onEffect: () => {},
          reply: (m) => queueMicrotask(() => port.onmessage?.({ data: m })),
        })
        const tab: FakeTab = { tabId, raw, received, snapshots, receiver, port, frozen: false }
        port.postMessage = (m) => {
          const batch = decodeBatch(m)!
          raw.push(batch)
          if (batch.snapshot !== null) snapshots.push(batch.snapshot)
          received.push(...batch.items)
          if (!tab.frozen) receiver.receive(batch)
        }
        tabs.set(tabId, tab)
        const full: TabHello = { tabId, channelCode: null, route: homeRoute, visible: true, launch: false, ...hello }
        registry.attach(full)
        hub.attach(tabId, port, { generation: null, state: null })
        if (full.launch) yield* launchTab({ tabId, channelCode: full.channelCode })
        // the first batch (the snapshot) goes out on the next microtask: later events then arrive as events
        yield* Effect.promise(() => Promise.resolve())
        return tab
      }),
  }

  const program = Effect.gen(function* () {
    yield* prepareStorage
    if (options.launch === true) yield* launchCore
    return yield* body(h)
  })
  return Effect.runPromise(program.pipe(Effect.provide(layer), Effect.provide(TestClock.layer())))
}

/** The events of one tab, by tag. */
export const eventsOf = (tab: FakeTab, tag: string) => tab.received.filter((d) => d.event._tag === tag).map((d) => d.event)

export { EventHub, TabRegistry }
