// The tab's connection to the core: starts (or joins) the SharedWorker, or a dedicated Worker where SharedWorker is
// missing; attaches with a transferred event port; delivers in-order batches (repairing seq gaps with resync); and
// when the worker dies (ping timeout, error) starts a new one and reattaches without a page reload.
import { transfer, wrap, type Remote } from 'comlink'
import type { CoreApi, PortDownMessage, Snapshot, TabHello, TabRoute } from '../../worker/protocol/commands.ts'
import { CORE_WORKER_NAME, WORKER_PING_INTERVAL_MS, WORKER_PING_TIMEOUT_MS } from '../../worker/protocol/constants.ts'
import type { EventBatch } from '../../worker/protocol/events.ts'
import { encodeWorkerName, type CoreTestConfig } from '../../worker/config/core-config-values.ts'
import { createSequencer } from './sequencer.ts'
import { holdTabLock } from './tab-lock.ts'
import type { ConnectCore, CoreClient } from './types.ts'

declare global {
  /** Test-only: shortens the core's timers, isolates its worker, forces the dedicated fallback. Never set in the app. */
  var __CORE_TEST_CONFIG__: CoreTestConfig | undefined
}

interface Link {
  readonly api: Remote<CoreApi>
  readonly events: MessagePort
  readonly dispose: () => void
}

const startWorker = (shared: boolean, name: string, onDead: () => void): { api: Remote<CoreApi>; dispose: () => void } => {
  if (shared) {
    const worker = new SharedWorker(new URL('../../worker/main.ts', import.meta.url), { type: 'module', name })
    worker.onerror = onDead
    return { api: wrap<CoreApi>(worker.port), dispose: () => worker.port.close() }
  }
  const worker = new Worker(new URL('../../worker/main.ts', import.meta.url), { type: 'module', name })
  worker.onerror = onDead
  return { api: wrap<CoreApi>(worker), dispose: () => worker.terminate() }
}

const withTimeout = <A>(p: Promise<A>, ms: number): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms)
    p.then((v) => { clearTimeout(timer); resolve(v) }, (e) => { clearTimeout(timer); reject(e) })
  })

export const connectCore: ConnectCore = async (options) => {
  const test = globalThis.__CORE_TEST_CONFIG__ ?? null
  const name = encodeWorkerName(test?.workerName ?? CORE_WORKER_NAME, test)
  const shared = typeof SharedWorker !== 'undefined' && test?.forceDedicated !== true
  const pingInterval = test?.pingIntervalMs ?? WORKER_PING_INTERVAL_MS
  const pingTimeout = test?.pingTimeoutMs ?? WORKER_PING_TIMEOUT_MS
  const tabId = crypto.randomUUID()
  const releaseLock = await holdTabLock(tabId)

  const eventListeners = new Set<(batch: EventBatch) => void>()
  const snapshotListeners = new Set<(snapshot: Snapshot) => void>()
  let route: TabRoute = options.route
  let visible = options.visible
  let applied = 0
  let closed = false
  let link: Link | null = null
  let generation = 0
  // every port message and every (re)attach is handled in order on this chain.
  let chain: Promise<void> = Promise.resolve()
  const enqueue = (step: () => Promise<void> | void) => {
    chain = chain.then(step).catch(() => {})
  }

  // the link whose port delivered the batch being handled: a gap is repaired from that same worker.
  let handling: Link | null = null
  const sequencer = createSequencer({
    resync: (sinceSeq) => (handling ?? link!).api.resync(sinceSeq),
    emit: (batch) => eventListeners.forEach((l) => l(batch)),
    applySnapshot: (snapshot) => snapshotListeners.forEach((l) => l(snapshot)),
  })

  const attach = (gen: number) => {
    const worker = startWorker(shared, name, () => reconnect(gen))
    const channel = new MessageChannel()
    const current: Link = { api: worker.api, events: channel.port1, dispose: () => { channel.port1.close(); worker.dispose() } }
    link = current
    channel.port1.onmessage = (ev: MessageEvent<PortDownMessage>) => {
      const msg = ev.data
      enqueue(async () => {
        if (gen !== generation) return
        handling = current
        if (Array.isArray(msg)) await sequencer.handleBatch(msg)
        else if ('resyncNeeded' in msg) await sequencer.catchUp()
        handling = null
        applied += 1
        current.events.postMessage({ ack: applied })
      })
    }
    const hello: TabHello = { tabId, channelCode: options.channelCode, route, visible, lastSeq: sequencer.lastSeq() }
    const attached = current.api.attach(hello, transfer(channel.port2, [channel.port2]))
    return { current, attached }
  }

  const reconnect = (gen: number) => {
    if (closed || gen !== generation) return
    generation += 1
    link?.dispose()
    const { attached } = attach(generation)
    enqueue(async () => sequencer.fromSnapshot(await attached))
  }

  const first = attach(generation)
  const snapshot = await first.attached
  // the first snapshot is handed over as `client.snapshot`, not through the snapshot listeners.
  sequencer.fromSnapshot(snapshot)

  const pinger = setInterval(() => {
    const gen = generation
    const current = link
    if (current === null || closed) return
    withTimeout(current.api.ping(), pingTimeout).catch(() => reconnect(gen))
  }, pingInterval)

  // a stable API whose calls go to whichever worker is current; route and visibility are remembered for reattach.
  const api = new Proxy({} as Remote<CoreApi>, {
    get: (_, prop) => typeof prop !== 'string' || prop === 'then' ? undefined : (...args: Array<unknown>) => {
      if (prop === 'reportRoute') route = args[0] as TabRoute
      if (prop === 'reportVisibility') visible = args[0] as boolean
      const target = link?.api as unknown as Record<string, (...a: Array<unknown>) => Promise<unknown>>
      return target[prop](...args)
    },
  })

  const client: CoreClient = {
    api,
    snapshot,
    mode: shared ? 'shared' : 'dedicated',
    onEvents: (listener) => {
      eventListeners.add(listener)
      return () => void eventListeners.delete(listener)
    },
    onSnapshot: (listener) => {
      snapshotListeners.add(listener)
      return () => void snapshotListeners.delete(listener)
    },
    close: () => {
      if (closed) return
      closed = true
      clearInterval(pinger)
      const current = link
      link = null
      current?.api.detach().catch(() => {}).finally(() => current.dispose())
      releaseLock()
    },
  }
  return client
}
