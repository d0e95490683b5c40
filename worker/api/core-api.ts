// The comlink-exposed CoreApi of one port: every command of a tab, answered with plain values.
import * as Effect from 'effect/Effect'
import type * as Layer from 'effect/Layer'
import type { CallContext } from '../http/http-pipeline.ts'
import type { EndpointName } from '../protocol/catalogue.ts'
import { readHomeView } from '../protocol/projection/home-view.ts'
import { REPEATABLE_ENDPOINTS, SILENT_ENDPOINTS } from '../protocol/endpoint-flags.ts'
import type { CallResultOf, CoreApi, TabHello, TabHolds } from '../protocol/commands.ts'
import { LOGIN_PATH } from '../protocol/constants.ts'
import { TAB_WRITABLE_KEYS, type TabWritableKey } from '../protocol/storage-keys.ts'
import type { makeCoreLayer } from '../runtime/core-layer.ts'
import { launchTab } from '../runtime/startup.ts'
import { avatarEventOf } from '../account/head-portrait.ts'
import { DeviceList } from '../devices/device-list.ts'
import { GroupLedger } from '../group/group-ledger.ts'
import { EventHub, type TestPort } from '../events/event-hub.ts'
import { HttpPipeline, type Payload } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import { ExitAction } from '../session/exit-action.ts'
import { Session } from '../session/session.ts'
import { SessionState } from '../session/session-state.ts'
import { getString, Storage } from '../storage/storage.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { StreamHub } from '../stream/stream-service.ts'
import type { HubPort } from '../stream/stream-hub.ts'
import type { CoreToDecoder, CoreToTab, WallToTab } from '../protocol/stream-ports.ts'

export type CoreServices = Layer.Success<ReturnType<typeof makeCoreLayer>>
export type RunCore = <A>(effect: Effect.Effect<A, never, CoreServices>) => Promise<A>

const isWritable = (key: string): key is TabWritableKey => (TAB_WRITABLE_KEYS as ReadonlyArray<string>).includes(key)

/** `lifeLock`: the name of the worker's lifetime lock once held (worker/runtime/life-lock.ts), told to each tab. */
export const makeCoreApi = (run: RunCore, terminate: () => void, lifeLock: Promise<string | null> = Promise.resolve(null)): CoreApi => {
  let tabId: string | null = null

  const ctx = Effect.gen(function* () {
    const tabs = yield* TabRegistry
    const tab = tabId === null ? undefined : tabs.get(tabId)
    return { tabId, channelCode: tab?.channelCode ?? null } satisfies CallContext
  })

  const detach = Effect.gen(function* () {
    const tabs = yield* TabRegistry
    const hub = yield* EventHub
    if (tabId !== null) {
      hub.detach(tabId)
      tabs.release(tabId)
    }
    tabId = null
  })

  return {
    attach: (hello: TabHello, holds: TabHolds, port: MessagePort) =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const hub = yield* EventHub
        tabId = hello.tabId
        tabs.attach(hello)
        hub.attach(hello.tabId, port as unknown as TestPort, holds)
        if (hello.launch) yield* launchTab(yield* ctx)
      })).then(() => ({ repeatable: REPEATABLE_ENDPOINTS, silent: SILENT_ENDPOINTS })),
    lifeLock: () => lifeLock,
    detach: () => run(detach),
    login: (input) => run(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.login(input, yield* ctx)
    })),
    loginWithCode: (input) => run(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.loginWithCode(input, yield* ctx)
    })),
    refreshSession: () => run(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.refresh(yield* ctx)
    })),
    logout: () => run(Effect.gen(function* () {
      const session = yield* Session
      yield* session.logout(yield* ctx)
    })),
    call: <N extends EndpointName>(name: N, ...payload: [unknown?]) =>
      run(Effect.gen(function* () {
        // the name is checked against the catalogue by the pipeline: the tab is another thread, not trusted code
        const http = yield* HttpPipeline
        const hub = yield* EventHub
        const { epoch } = (yield* SessionState).current()
        const result = yield* http.call(name, (payload[0] ?? {}) as Payload<N>, yield* ctx)
        const shared = avatarEventOf(name, result, hub.snapshot())
        if (shared !== null) hub.publish(shared, epoch)
        return result
      })) as Promise<CallResultOf<N>>,
    refreshDevices: () =>
      run(Effect.gen(function* () {
        const devices = yield* DeviceList
        return yield* devices.refresh(yield* ctx)
      })),
    loadMealTypes: () =>
      run(Effect.gen(function* () {
        const meals = yield* MealTypes
        return yield* meals.reload(yield* ctx)
      })),
    reportRoute: (route) =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        if (tabId !== null) tabs.setRoute(tabId, route)
      })),
    reportVisibility: (visible) =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        if (tabId !== null) tabs.setVisible(tabId, visible)
      })),
    getLocal: (key) =>
      run(Effect.gen(function* () {
        if (!isWritable(key)) return null
        return yield* getString(yield* Storage, key)
      })),
    setLocal: (key, value) =>
      run(Effect.gen(function* () {
        if (!isWritable(key)) return
        const storage = yield* Storage
        yield* value === null ? storage.remove(key) : storage.set(key, value)
      })),
    setHomeView: (view) =>
      run(Effect.gen(function* () {
        const hub = yield* EventHub
        const next = readHomeView(view)
        const now = hub.snapshot().homeView
        if (next.mode !== now.mode || next.columns !== now.columns) hub.publish({ _tag: 'HomeViewChanged', view: next })
      })),
    openStream: (input, decoder, control) =>
      run(Effect.gen(function* () {
        const streams = yield* StreamHub
        // a tab that has not attached has no visibility the hub could follow: it streams nothing
        return streams.open(tabId ?? '', input, decoder as unknown as HubPort<CoreToDecoder>, control as unknown as HubPort<CoreToTab>)
      })),
    closeStream: (viewerId) =>
      run(Effect.gen(function* () {
        (yield* StreamHub).close(viewerId)
      })),
    openWall: (port) =>
      run(Effect.gen(function* () {
        return (yield* StreamHub).attachWall(tabId ?? '', port as unknown as HubPort<WallToTab>)
      })),
    closeWall: (wallId) =>
      run(Effect.gen(function* () {
        (yield* StreamHub).detachWall(wallId)
      })),
    groupCommand: (input) => run(Effect.gen(function* () {
      return yield* (yield* GroupLedger).run(input)
    })),
    streamStats: () => run(Effect.gen(function* () {
      return (yield* StreamHub).stats()
    })),
    ping: () => Promise.resolve('pong' as const),
    exitFromMaintenance: () =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const exit = yield* ExitAction
        const session = yield* SessionState
        const route = tabId === null ? undefined : tabs.get(tabId)?.route
        if (route?.path === LOGIN_PATH) return
        yield* exit.runOnce(session.current().epoch, { redirect: true })
      })),
    exportLog: () => run(Effect.gen(function* () {
      const hub = yield* EventHub
      return hub.exportLog()
    })),
    __terminate: () => {
      terminate()
      return Promise.resolve()
    },
  }
}
