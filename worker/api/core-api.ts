// The comlink-exposed CoreApi of one port: every command of a tab, answered with plain values.
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import type { CallContext } from '../http/http-pipeline.ts'
import { catalogue, type EndpointName } from '../protocol/catalogue.ts'
import type { CoreApi, TabHello } from '../protocol/commands.ts'
import { LOGIN_PATH } from '../protocol/constants.ts'
import { TAB_WRITABLE_KEYS, type TabWritableKey } from '../protocol/storage-keys.ts'
import type { makeCoreLayer } from '../runtime/core-layer.ts'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { HttpPipeline } from '../http/http-pipeline.ts'
import { ExitAction } from '../session/exit-action.ts'
import { Session } from '../session/session.ts'
import { getString, Storage } from '../storage/storage.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import type { TabPort } from '../tabs/tab-port.ts'
import { Texts } from '../texts.ts'

export type CoreServices = Layer.Success<ReturnType<typeof makeCoreLayer>>
export type RunCore = <A>(effect: Effect.Effect<A, never, CoreServices>) => Promise<A>

const isWritable = (key: string): key is TabWritableKey => (TAB_WRITABLE_KEYS as ReadonlyArray<string>).includes(key)

export const makeCoreApi = (run: RunCore, terminate: () => void): CoreApi => {
  let tabId: string | null = null

  const ctx = Effect.gen(function* () {
    const tabs = yield* TabRegistry
    const tab = tabId === null ? undefined : tabs.get(tabId)
    return { tabId, channelCode: tab?.channelCode ?? null } satisfies CallContext
  })

  return {
    attach: (hello: TabHello, port: MessagePort) =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const hub = yield* EventHub
        tabId = hello.tabId
        tabs.attach(hello, port as unknown as TabPort)
        return hub.snapshot()
      })),
    detach: () =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        if (tabId !== null) tabs.release(tabId)
        tabId = null
      })),
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
    call: (name: EndpointName, payload?: unknown) =>
      run(Effect.gen(function* () {
        const endpoint = catalogue[name]
        if (endpoint === undefined) return { ok: false, status: 0, msg: Texts.serverError, silent: false } as const
        const http = yield* HttpPipeline
        return yield* http.call(endpoint, payload, yield* ctx)
      })),
    refreshDevices: () =>
      run(Effect.gen(function* () {
        const devices = yield* DeviceList
        return yield* devices.refresh(yield* ctx)
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
    resync: (sinceSeq) =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const hub = yield* EventHub
        // one synchronous step: nothing can be published between the catch-up and the resumed live stream.
        if (tabId !== null) tabs.markResynced(tabId)
        return hub.since(sinceSeq)
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
    ping: () => Promise.resolve('pong' as const),
    exitFromMaintenance: () =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const exit = yield* ExitAction
        const route = tabId === null ? undefined : tabs.get(tabId)?.route
        if (route?.path === LOGIN_PATH) return
        yield* exit.run({ redirect: true })
      })),
    __terminate: () => {
      terminate()
      return Promise.resolve()
    },
  }
}
