// The tab's connection to the core: starts (or joins) the SharedWorker, or a dedicated Worker where SharedWorker is
// missing; attaches with a transferred event port and what this tab already holds; applies the core's batches through
// the receiver (one fold, the projection's); and when the worker dies (ping timeout, error) starts a new one and
// reattaches without a page reload. Nothing here ever waits on a promise of a worker that may be dead: every call
// races the death of the link it went out on, so a killed worker can never hang a call or a reattach.
import { transfer, wrap, type Remote } from 'comlink'
import { decodeBatch } from '../../worker/protocol/batch-codec.ts'
import type { CallResult, CoreApi, Snapshot, TabHello, TabRoute } from '../../worker/protocol/commands.ts'
import { CORE_WORKER_NAME, WORKER_PING_INTERVAL_MS, WORKER_PING_TIMEOUT_MS, WORKER_START_TIMEOUT_MS } from '../../worker/protocol/constants.ts'
import type { EffectEvent } from '../../worker/protocol/events.ts'
import { encodeWorkerName, type CoreTestConfig } from '../../worker/config/core-config-values.ts'
import { zhCN } from '../i18n/zh-CN.ts'
import { takeTabLock, takeEarlyCore } from '../boot/early-core.ts'
import { createReceiver } from './receiver.ts'
import type { ConnectCore, CoreClient } from './types.ts'

declare global {
  /** Test-only: shortens the core's timers, isolates its worker, forces the dedicated fallback. Never set in the app. */
  var __CORE_TEST_CONFIG__: CoreTestConfig | undefined
}

interface Link {
  readonly api: Remote<CoreApi>
  readonly port: MessagePort
  readonly startedAt: number
  /** the worker has sent its first batch: from then on a ping it does not answer in time means it is dead. */
  up: boolean
  /** rejects when this link is given up: every call on it settles then. */
  readonly dead: Promise<never>
  readonly dispose: () => void
}

class LinkDied extends Error {}

/** Commands whose answer is a CallResult: interrupted by a worker death, they answer with a clear failure. */
const CALL_RESULT_COMMANDS = new Set(['login', 'loginWithCode', 'refreshSession', 'call', 'refreshDevices', 'loadMealTypes'])
const interrupted: CallResult<never> = { ok: false, status: 0, msg: zhCN.app.coreRestarted, silent: false }

const startWorker = (shared: boolean, name: string, onDead: () => void): { api: Remote<CoreApi>; dispose: () => void } => {
  if (shared) {
    const worker = takeEarlyCore(name) ?? new SharedWorker(new URL('../../worker/main.ts', import.meta.url), { type: 'module', name })
    worker.onerror = onDead
    return { api: wrap<CoreApi>(worker.port), dispose: () => worker.port.close() }
  }
  const worker = new Worker(new URL('../../worker/main.ts', import.meta.url), { type: 'module', name })
  worker.onerror = onDead
  return { api: wrap<CoreApi>(worker), dispose: () => worker.terminate() }
}

export const connectCore: ConnectCore = async (options) => {
  const test = globalThis.__CORE_TEST_CONFIG__ ?? null
  const name = encodeWorkerName(test?.workerName ?? CORE_WORKER_NAME, test)
  const shared = typeof SharedWorker !== 'undefined' && test?.forceDedicated !== true
  const pingInterval = test?.pingIntervalMs ?? WORKER_PING_INTERVAL_MS
  const pingTimeout = test?.pingTimeoutMs ?? WORKER_PING_TIMEOUT_MS
  const startTimeout = WORKER_START_TIMEOUT_MS
  const { tabId, lock } = takeTabLock()
  const releaseLock = await lock

  const stateListeners = new Set<(state: Snapshot, replaced: boolean) => void>()
  const effectListeners = new Set<(event: EffectEvent) => void>()
  const reattachListeners = new Set<() => void>()
  let route: TabRoute = options.route
  let visible = options.visible
  let closed = false
  let link: Link | null = null
  let generation = 0
  let attaches = 0
  let replyPort: MessagePort | null = null
  let firstState: (() => void) | null = null
  const ready = new Promise<void>((resolve) => { firstState = resolve })

  const receiver = createReceiver({
    onState: (state, replaced) => {
      stateListeners.forEach((l) => l(state, replaced))
      firstState?.()
      firstState = null
    },
    onEffect: (event) => effectListeners.forEach((l) => l(event)),
    reply: (message) => replyPort?.postMessage(message),
  })

  const attach = () => {
    const gen = ++generation
    const worker = startWorker(shared, name, () => reconnect(gen))
    const channel = new MessageChannel()
    let kill: (e: Error) => void = () => {}
    const dead = new Promise<never>((_, reject) => { kill = reject })
    dead.catch(() => {})
    const current: Link = {
      api: worker.api, port: channel.port1, dead, startedAt: Date.now(), up: false,
      dispose: () => {
        kill(new LinkDied())
        channel.port1.onmessage = null
        channel.port1.close()
        worker.dispose()
      },
    }
    link = current
    // Chromium fires close on a port whose other end's context was destroyed: a killed worker is noticed at once
    // instead of at the next ping timeout
    channel.port1.addEventListener('close', () => reconnect(gen))
    channel.port1.onmessage = (ev: MessageEvent<unknown>) => {
      if (link !== current) return
      const batch = decodeBatch(ev.data)
      if (batch === null) return
      current.up = true
      replyPort = current.port
      receiver.receive(batch)
      replyPort = null
    }
    // the first attach of a page load is a launch of the app (decisions.md); a reattach is not
    const reattach = attaches > 0
    const hello: TabHello = { tabId, channelCode: options.channelCode, route, visible, launch: attaches++ === 0 }
    const holds = { generation: receiver.generation(), state: receiver.generation() === null ? null : receiver.state() }
    Promise.race([worker.api.attach(hello, holds, transfer(channel.port2, [channel.port2])), dead])
      .then(() => { if (reattach && link === current) reattachListeners.forEach((l) => l()) })
      .catch((e: unknown) => { if (!(e instanceof LinkDied)) reconnect(gen) })
  }

  const reconnect = (gen: number) => {
    if (closed || gen !== generation) return
    link?.dispose()
    attach()
  }

  attach()
  let pinging = false
  const pinger = setInterval(() => {
    const current = link
    if (current === null || closed || pinging) return
    // a worker still loading is slow, not dead (a slow phone, a cold cache): replacing it would only start the wait
    // over, so the ping timeout counts once it is up; a worker that never comes up is replaced after the start timeout
    if (!current.up) {
      if (Date.now() - current.startedAt > startTimeout) reconnect(generation)
      return
    }
    pinging = true
    const gen = generation
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), pingTimeout) })
    Promise.race([current.api.ping(), timeout, current.dead])
      .catch((e: unknown) => { if (!(e instanceof LinkDied)) reconnect(gen) })
      .finally(() => {
        clearTimeout(timer)
        pinging = false
      })
  }, pingInterval)

  await ready

  // a stable API whose calls go to whichever worker is current; route and visibility are remembered for reattach
  const api = new Proxy({} as Remote<CoreApi>, {
    get: (_, prop) => typeof prop !== 'string' || prop === 'then' ? undefined : (...args: Array<unknown>) => {
      if (prop === 'reportRoute') route = args[0] as TabRoute
      if (prop === 'reportVisibility') visible = args[0] as boolean
      const current = link
      if (current === null) return Promise.resolve(CALL_RESULT_COMMANDS.has(prop) ? interrupted : undefined)
      const target = current.api as unknown as Record<string, (...a: Array<unknown>) => Promise<unknown>>
      return Promise.race([target[prop](...args), current.dead]).catch((e: unknown) => {
        if (!(e instanceof LinkDied)) throw e
        return CALL_RESULT_COMMANDS.has(prop) ? interrupted : undefined
      })
    },
  })

  const client: CoreClient = {
    api,
    state: receiver.state,
    mode: shared ? 'shared' : 'dedicated',
    onState: (listener) => {
      stateListeners.add(listener)
      return () => void stateListeners.delete(listener)
    },
    onEffect: (listener) => {
      effectListeners.add(listener)
      return () => void effectListeners.delete(listener)
    },
    onReattach: (listener) => {
      reattachListeners.add(listener)
      return () => void reattachListeners.delete(listener)
    },
    close: () => {
      if (closed) return
      closed = true
      clearInterval(pinger)
      const current = link
      link = null
      if (current !== null) {
        void Promise.race([current.api.detach(), current.dead]).catch(() => {}).finally(() => current.dispose())
      }
      releaseLock()
    },
  }
  return client
}
