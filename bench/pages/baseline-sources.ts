// The three baselines as tab sources: a socket per tab, a comlink callback per event, batches over a raw MessagePort.
import * as Comlink from 'comlink'
import { HEARTBEAT_INTERVAL_MS } from '../../worker/protocol/constants.ts'
import { keepAliveFrame } from '../../worker/protocol/push-wire.ts'
import { frameId } from '../lib/frames.ts'
import type { BaselineApi } from './baseline-worker.ts'
import { frameToEvent, initialBenchState, type BenchDelivered, type BenchState, type CounterForm } from './bench-store.ts'
import { now } from './clock.ts'
import { makeProjection, type Projection } from './projection.ts'
import type { SourceContext, TabSource } from './tab-source.ts'

const fromProjection = (p: Projection, rest: Pick<TabSource, 'workerArrivals' | 'resetWorker' | 'workerIsolated'>): TabSource => ({
  counter: () => p.counter(),
  subscribe: (listener) => p.subscribe(listener),
  useCounter: () => p.useCounter(),
  controls: { projection: () => p.kind },
  ...rest,
})

const heartbeatMs = (params: URLSearchParams): number => Number(params.get('hb') ?? HEARTBEAT_INTERVAL_MS)

export const perTabSocket = async (ctx: SourceContext): Promise<TabSource> => {
  const projection = await makeProjection(initialBenchState)
  let state: BenchState = initialBenchState
  const ws = new WebSocket(ctx.params.get('ws')!)
  ws.addEventListener('message', (e) => {
    const t = now()
    const text = e.data as string
    const next = frameToEvent(state, text, projection.form)
    if (next === null) return
    state = next.state
    ctx.onArrival(frameId(text), t)
    projection.apply([next.delivered])
  })
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve())
    ws.addEventListener('error', () => reject(new Error('per-tab socket failed')))
  })
  ws.send(keepAliveFrame())
  setInterval(() => ws.send(keepAliveFrame()), heartbeatMs(ctx.params))
  return fromProjection(projection, {
    workerArrivals: async () => [],
    resetWorker: async () => undefined,
    workerIsolated: async () => null,
  })
}

const baselineWorker = async (ctx: SourceContext, form: CounterForm): Promise<Comlink.Remote<BaselineApi>> => {
  const name = ctx.params.get('worker') ?? 'bench-baseline'
  const worker = new SharedWorker(new URL('./baseline-worker.ts', import.meta.url), { type: 'module', name })
  const api = Comlink.wrap<BaselineApi>(worker.port)
  await api.open(ctx.params.get('ws')!, heartbeatMs(ctx.params), form)
  return api
}

const workerControls = (api: Comlink.Remote<BaselineApi>): Pick<TabSource, 'workerArrivals' | 'resetWorker' | 'workerIsolated'> => ({
  workerArrivals: () => api.arrivals(),
  resetWorker: () => api.reset(),
  workerIsolated: () => api.crossOriginIsolated(),
})

/** the tab's store starts from the worker's state at attach; events that came during the attach are applied after. */
const attachWith = async (ctx: SourceContext, attach: (api: Comlink.Remote<BaselineApi>, deliver: (batch: BenchDelivered[]) => void) => Promise<BenchState>): Promise<TabSource> => {
  const form = (await makeProjection(initialBenchState)).form
  const api = await baselineWorker(ctx, form)
  let projection: Projection | null = null
  const early: BenchDelivered[] = []
  const state = await attach(api, (batch) => (projection ? projection.apply(batch) : void early.push(...batch)))
  const ready = await makeProjection(state)
  ready.apply(early.filter((d) => d.seq > state.seq))
  projection = ready
  return fromProjection(ready, workerControls(api))
}

export const comlinkCallback = (ctx: SourceContext): Promise<TabSource> =>
  attachWith(ctx, (api, deliver) => api.attachCallback(Comlink.proxy((delivered: BenchDelivered) => deliver([delivered]))))

export const rawPortBatches = (ctx: SourceContext): Promise<TabSource> =>
  attachWith(ctx, async (api, deliver) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = (e: MessageEvent<BenchDelivered[]>) => deliver(e.data)
    return api.attachPort(Comlink.transfer(channel.port2, [channel.port2]))
  })
