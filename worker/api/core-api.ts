// The comlink-exposed CoreApi of one port: every command of a tab (worker/protocol/commands.ts), decoded at the
// boundary with its request schema before any core code runs, and answered with plain values. A malformed command is
// refused there: a Reply command answers a failure value naming the command and the reason, any other rejects with an
// Error saying the same. State-changing commands answer with `seq`, the log head they left (CoreClient.reached).
import * as Effect from 'effect/Effect'
import type * as Layer from 'effect/Layer'
import type { CallContext } from '../http/http-pipeline.ts'
import type { EndpointName } from '../protocol/catalogue.ts'
import { KEYED_ENDPOINTS, REPEATABLE_ENDPOINTS, SILENT_ENDPOINTS } from '../protocol/endpoint-flags.ts'
import type { Ack, CallResult, CommandName, CoreApi, Reply } from '../protocol/commands.ts'
import { LOGIN_PATH } from '../protocol/constants.ts'
import { REPLY_COMMANDS } from '../protocol/on-death.ts'
import type { makeCoreLayer } from '../runtime/core-layer.ts'
import { launchTab } from '../runtime/startup.ts'
import { loadBoundary } from './load-boundary.ts'
import { avatarEventOf } from '../account/head-portrait.ts'
import { DeviceList } from '../devices/device-list.ts'
import { GroupLedger } from '../group/group-ledger.ts'
import { EventHub, type TestPort } from '../events/event-hub.ts'
import { HttpPipeline } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import { PushConnection } from '../push/push-connection.ts'
import { ExitAction } from '../session/exit-action.ts'
import { Session } from '../session/session.ts'
import { SessionState } from '../session/session-state.ts'
import { getString, Storage } from '../storage/storage.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { StreamHub } from '../stream/stream-service.ts'
import type { HubPort } from '../stream/stream-hub.ts'
import type { CoreToDecoder, CoreToTab, WallToTab } from '../protocol/stream-ports.ts'
import { core } from '../texts.ts'

export type CoreServices = Layer.Success<ReturnType<typeof makeCoreLayer>>
export type RunCore = <A>(effect: Effect.Effect<A, never, CoreServices>) => Promise<A>

/** The log head after a command: every state event it published is at or below it. */
const headSeq = Effect.gen(function* () {
  return (yield* EventHub).snapshot().seq
})
const replied = <A, R>(effect: Effect.Effect<CallResult<A>, never, R>) =>
  Effect.flatMap(effect, (result) => Effect.map(headSeq, (seq): Reply<A> => ({ ...result, seq })))
const acked = <R>(effect: Effect.Effect<void, never, R>) => Effect.andThen(effect, Effect.map(headSeq, (seq): Ack => ({ seq })))

/**
 * Decodes every command's arguments with its request schema before the handler runs: the tab is another thread, not
 * trusted code. A command that does not decode never reaches the core. `lifeLock` takes no arguments and answers at
 * once: a tab asks it first, and must learn of the lock even before the decoders' chunk has arrived.
 */
export const guardCommands = (api: CoreApi): CoreApi => {
  const guarded: Record<string, (...args: Array<unknown>) => Promise<unknown>> = {}
  for (const name of Object.keys(api) as Array<CommandName>) {
    const handler = api[name] as (...args: Array<unknown>) => Promise<unknown>
    guarded[name] = name === 'lifeLock' ? () => handler() : (...args) => loadBoundary().then((boundary) => {
      const decoded = boundary.decodeCommand(name, args)
      if (decoded.ok) return handler(...decoded.args)
      const msg = core.invalidCommand(name, decoded.reason)
      return REPLY_COMMANDS.has(name) ? { ok: false, status: 0, msg, silent: false, seq: 0 } : Promise.reject(new Error(msg))
    })
  }
  return guarded as unknown as CoreApi
}

/** `lifeLock`: the name of the worker's lifetime lock once held (worker/runtime/life-lock.ts), told to each tab. */
export const makeCoreApi = (run: RunCore, lifeLock: Promise<string | null> = Promise.resolve(null)): CoreApi =>
  guardCommands(makeHandlers(run, lifeLock))

const makeHandlers = (run: RunCore, lifeLock: Promise<string | null>): CoreApi => {
  let tabId: string | null = null

  // every command of a tab that goes to the server takes its context here: a new call starts a fresh push cycle
  const ctx = Effect.gen(function* () {
    (yield* PushConnection).kick()
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
    attach: (hello, holds, port) =>
      run(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const hub = yield* EventHub
        tabId = hello.tabId
        tabs.attach(hello)
        hub.attach(hello.tabId, port as unknown as TestPort, holds)
        if (hello.launch) yield* launchTab(yield* ctx)
      })).then(() => ({ repeatable: REPEATABLE_ENDPOINTS, silent: SILENT_ENDPOINTS, keyed: KEYED_ENDPOINTS })),
    lifeLock: () => lifeLock,
    detach: () => run(detach),
    login: (input) => run(replied(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.login(input, yield* ctx)
    }))),
    loginWithCode: (input) => run(replied(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.loginWithCode(input, yield* ctx)
    }))),
    resetPassword: (input) => run(replied(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.resetPassword(input, yield* ctx)
    }))),
    refreshSession: () => run(replied(Effect.gen(function* () {
      const session = yield* Session
      return yield* session.refresh(yield* ctx)
    }))),
    logout: () => run(acked(Effect.gen(function* () {
      const session = yield* Session
      yield* session.logout(yield* ctx)
    }))),
    // the payload is decoded by the pipeline with the endpoint's own request schema (the name is by now one of the
    // catalogue's); the data type per endpoint is the contract's CallReply
    call: ((name: EndpointName, payload?: unknown, key?: string) =>
      run(replied(Effect.gen(function* () {
        const http = yield* HttpPipeline
        const hub = yield* EventHub
        const { epoch } = (yield* SessionState).current()
        const result = yield* http.call(name, payload, { ...(yield* ctx), ...(key !== undefined ? { key } : {}) })
        const shared = avatarEventOf(name, result, hub.snapshot())
        if (shared !== null) hub.publish(shared, epoch)
        return result
      })))) as CoreApi['call'],
    refreshDevices: () =>
      run(replied(Effect.gen(function* () {
        const devices = yield* DeviceList
        return yield* devices.refresh(yield* ctx)
      }))),
    loadMealTypes: () =>
      run(replied(Effect.gen(function* () {
        const meals = yield* MealTypes
        return yield* meals.reload(yield* ctx)
      }))),
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
    reportOnline: () => run(Effect.gen(function* () { (yield* PushConnection).kick() })),
    getLocal: (key) =>
      run(Effect.gen(function* () {
        return yield* getString(yield* Storage, key)
      })),
    setLocal: (key, value) =>
      run(Effect.gen(function* () {
        const storage = yield* Storage
        yield* value === null ? storage.remove(key) : storage.set(key, value)
      })),
    setHomeView: (view) =>
      run(acked(Effect.gen(function* () {
        const hub = yield* EventHub
        const now = hub.snapshot().homeView
        if (view.mode !== now.mode || view.columns !== now.columns) hub.publish({ _tag: 'HomeViewChanged', view })
      }))),
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
    groupCommand: (input) => run(replied(Effect.gen(function* () {
      return yield* (yield* GroupLedger).run(input)
    }))),
    streamStats: () => run(Effect.gen(function* () {
      return (yield* StreamHub).stats()
    })),
    ping: () => Promise.resolve('pong' as const),
    exitFromMaintenance: () =>
      run(acked(Effect.gen(function* () {
        const tabs = yield* TabRegistry
        const exit = yield* ExitAction
        const session = yield* SessionState
        const route = tabId === null ? undefined : tabs.get(tabId)?.route
        if (route?.path === LOGIN_PATH) return
        yield* exit.runOnce(session.current().epoch, { redirect: true })
      }))),
    exportLog: () => run(Effect.gen(function* () {
      const hub = yield* EventHub
      return hub.exportLog()
    })),
  }
}
