// The tab's connection to the core: starts (or joins) the SharedWorker, or a dedicated Worker where SharedWorker is
// missing; attaches with a transferred event port and what this tab already holds; applies the core's batches through
// the receiver (one fold, the projection's); and when the worker dies starts a new one and reattaches without a page
// reload. Death is learnt from the worker's lifetime Web Lock (granted to this tab the moment the browser destroys
// the worker: the guaranteed path, ~30 ms), from Chromium's port close event where it fires, and as a last resort
// from the ping timeout (a hung worker, a browser without Web Locks). Nothing here ever waits on a promise of a worker
// that may be dead: every call races the death of the link it went out on, and is then settled by the replay rule
// (worker/protocol/on-death.ts): replayed on the new worker when it is safe to repeat, else answered with "outcome
// unknown" at once.
import { transfer, wrap, type Remote } from 'comlink'
import { decodeBatch } from '../../worker/protocol/batch-codec.ts'
import type { Attached, CoreApi, Snapshot, TabHello, TabRoute } from '../../worker/protocol/commands.ts'
import { CORE_WORKER_NAME, WORKER_PING_INTERVAL_MS, WORKER_PING_TIMEOUT_MS, WORKER_RESTART_TIMEOUT_MS, WORKER_START_TIMEOUT_MS } from '../../worker/protocol/constants.ts'
import type { EffectEvent } from '../../worker/protocol/events.ts'
import { encodeWorkerName, type CoreTestConfig } from '../../worker/config/core-config-values.ts'
import { takeTabLock, takeEarlyCore } from '../boot/early-core.ts'
import { createReached } from './reached.ts'
import { createReceiver } from './receiver.ts'
import { afterDeath, noReplayRule, settledAnswer, withCallKey, type ReplayRule } from './replay.ts'
import { newIdempotencyKey } from '../../worker/protocol/idempotency.ts'
import type { ConnectCore, CoreClient, WorkerLoss } from './types.ts'

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
  /** resolves when the worker answered this tab's attach; a command goes out on a link only then. */
  readonly attached: Promise<Attached>
  readonly dispose: () => void
}

class LinkDied extends Error {}

/** Calls `onGone` when the lock `name` is granted to this tab: its holder (the core's worker) is gone. */
const watchLock = (name: string, signal: AbortSignal, onGone: () => void): void => {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (locks === undefined) return
  locks.request(name, { signal }, () => { if (!signal.aborted) onGone() }).catch(() => {})
}

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
  const restartTimeout = test?.restartTimeoutMs ?? WORKER_RESTART_TIMEOUT_MS
  const { tabId, lock } = takeTabLock()
  const releaseLock = await lock

  const stateListeners = new Set<(state: Snapshot, replaced: boolean) => void>()
  const effectListeners = new Set<(event: EffectEvent) => void>()
  const reattachListeners = new Set<() => void>()
  const lossListeners = new Set<(how: WorkerLoss) => void>()
  let route: TabRoute = options.route
  let visible = options.visible
  let closed = false
  let link: Link | null = null
  let generation = 0
  let attaches = 0
  let replyPort: MessagePort | null = null
  /** the last worker's replay rule (Attached): which endpoints `call` may send again, which fail silently. */
  let replay: ReplayRule = noReplayRule
  let firstState: (() => void) | null = null
  const ready = new Promise<void>((resolve) => { firstState = resolve })

  // commands' answers name the seq they left; a screen waits for it on this tab's state (reached.ts)
  const seqs = createReached(() => receiver.state())
  const receiver = createReceiver({
    onState: (state, replaced) => {
      seqs.onState(state, replaced)
      stateListeners.forEach((l) => l(state, replaced))
      firstState?.()
      firstState = null
    },
    onEffect: (event) => effectListeners.forEach((l) => l(event)),
    reply: (message) => replyPort?.postMessage(message),
  })

  const attach = () => {
    const gen = ++generation
    const worker = startWorker(shared, name, () => reconnect(gen, 'error'))
    const channel = new MessageChannel()
    let kill: (e: Error) => void = () => {}
    const dead = new Promise<never>((_, reject) => { kill = reject })
    dead.catch(() => {})
    const unwatch = new AbortController()
    // the first attach of a page load is a launch of the app (decisions.md); a reattach is not
    const reattach = attaches > 0
    const hello: TabHello = { tabId, channelCode: options.channelCode, route, visible, launch: attaches++ === 0 }
    const holds = { generation: receiver.generation(), state: receiver.generation() === null ? null : receiver.state() }
    // asked first: answered once the worker's script runs, before its core has started
    const lifeLock = Promise.race([worker.api.lifeLock(), dead])
    lifeLock.catch(() => {})
    const attached = Promise.race([worker.api.attach(hello, holds, transfer(channel.port2, [channel.port2])), dead])
    attached.catch(() => {})
    const current: Link = {
      api: worker.api, port: channel.port1, dead, attached, startedAt: Date.now(), up: false,
      dispose: () => {
        unwatch.abort()
        kill(new LinkDied())
        channel.port1.onmessage = null
        channel.port1.close()
        worker.dispose()
      },
    }
    link = current
    // Chromium fires close on a port whose other end's context was destroyed: a killed worker is noticed at once
    // instead of at the next ping timeout
    channel.port1.addEventListener('close', () => reconnect(gen, 'close'))
    channel.port1.onmessage = (ev: MessageEvent<unknown>) => {
      if (link !== current) return
      const batch = decodeBatch(ev.data)
      if (batch === null) return
      current.up = true
      replyPort = current.port
      receiver.receive(batch)
      replyPort = null
    }
    // A worker killed while its script loads leaves no trace (no lock yet, no error event, measured): a replacement,
    // whose script the browser has just loaded for the one that died, that does not run in this time is started again
    const check = reattach ? setTimeout(() => reconnect(gen, 'start'), restartTimeout) : undefined
    unwatch.signal.addEventListener('abort', () => clearTimeout(check))
    // the worker holds this lock until it dies: the browser grants it to this tab then (granted at once when the
    // worker died before this request)
    lifeLock
      .then((lock) => {
        clearTimeout(check)
        if (lock !== null) watchLock(lock, unwatch.signal, () => reconnect(gen, 'lock'))
      })
      .catch(() => {})
    attached
      .then((answer) => {
        replay = { repeatable: new Set(answer.repeatable), silent: new Set(answer.silent), keyed: new Set(answer.keyed) }
        if (reattach && link === current) reattachListeners.forEach((l) => l())
      })
      .catch((e: unknown) => { if (!(e instanceof LinkDied)) reconnect(gen, 'attach') })
  }

  const reconnect = (gen: number, how: WorkerLoss) => {
    if (closed || gen !== generation) return
    seqs.release()
    lossListeners.forEach((l) => l(how))
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
      if (Date.now() - current.startedAt > startTimeout) reconnect(generation, 'start')
      return
    }
    pinging = true
    const gen = generation
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), pingTimeout) })
    Promise.race([current.api.ping(), timeout, current.dead])
      .catch((e: unknown) => { if (!(e instanceof LinkDied)) reconnect(gen, 'ping') })
      .finally(() => {
        clearTimeout(timer)
        pinging = false
      })
  }, pingInterval)

  await ready

  // a failure the core would have toasted in this tab had it answered (§8): the screens handle only success
  const toldFailure = (answer: unknown): unknown => {
    const r = answer as { ok?: unknown; msg?: unknown; silent?: unknown } | undefined
    if (r?.ok === false && r.silent !== true && typeof r.msg === 'string') {
      effectListeners.forEach((l) => l({ _tag: 'ShowToast', text: r.msg as string }))
    }
    return answer
  }

  const send = async (prop: string, given: Array<unknown>): Promise<unknown> => {
    // made once per call, before it first leaves: its replays on a new worker carry the same key (issue 40)
    const args = prop === 'call' ? withCallKey(given, newIdempotencyKey()) : given
    let replays = 0
    for (;;) {
      const current = link
      if (current === null) return settledAnswer(prop, args, 'drop', replay)
      // a link whose worker dies before it answered the attach never had the command: it goes to the next one
      const ready = await current.attached.then(() => true, () => false)
      if (!ready) {
        await current.dead.catch(() => {})
        continue
      }
      const target = current.api as unknown as Record<string, (...a: Array<unknown>) => Promise<unknown>>
      try {
        return await Promise.race([target[prop](...args), current.dead])
      } catch (e) {
        if (!(e instanceof LinkDied)) throw e
        const next = afterDeath(prop, args, replay, replays++, closed)
        if (!next.replay) return toldFailure(next.answer)
      }
    }
  }

  // a stable API whose calls go to whichever worker is current; route and visibility are remembered for reattach
  // (one function per command, made on first use: a screen may keep `api.call` in a hook's dependencies)
  const methods = new Map<string, (...args: Array<unknown>) => Promise<unknown>>()
  const method = (prop: string) => {
    let m = methods.get(prop)
    if (m === undefined) {
      m = (...args) => {
        if (prop === 'reportRoute') route = args[0] as TabRoute
        if (prop === 'reportVisibility') visible = args[0] as boolean
        return send(prop, args)
      }
      methods.set(prop, m)
    }
    return m
  }
  const api = new Proxy({} as CoreApi, {
    get: (_, prop) => typeof prop !== 'string' || prop === 'then' ? undefined : method(prop),
  })

  const client: CoreClient = {
    api,
    state: receiver.state,
    reached: seqs.reached,
    mode: shared ? 'shared' : 'dedicated',
    onState: (listener) => {
      stateListeners.add(listener)
      return () => void stateListeners.delete(listener)
    },
    onEffect: (listener) => {
      effectListeners.add(listener)
      return () => void effectListeners.delete(listener)
    },
    onWorkerLost: (listener) => {
      lossListeners.add(listener)
      return () => void lossListeners.delete(listener)
    },
    onReattach: (listener) => {
      reattachListeners.add(listener)
      return () => void reattachListeners.delete(listener)
    },
    close: () => {
      if (closed) return
      closed = true
      seqs.release()
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
