// The three baselines as tab sources: a socket per tab, a comlink callback per event, batches over a raw MessagePort.
import * as Comlink from 'comlink'
import type { Delivered } from '../../worker/protocol/events.ts'
import { HEARTBEAT_INTERVAL_MS } from '../../worker/protocol/constants.ts'
import { keepAliveFrame } from '../../worker/protocol/push.ts'
import { frameId } from '../lib/frames.ts'
import type { BaselineApi } from './baseline-worker.ts'
import { frameToEvent } from './bench-store.ts'
import { now } from './clock.ts'
import { makeProjection, type Projection } from './projection.ts'
import type { SourceContext, TabSource } from './tab-source.ts'

const report = (ctx: SourceContext, d: Delivered): void => {
  if (d.event._tag === 'CardCouponChanged' && d.seq !== null) ctx.onEvent(d.seq, d.event.counters.coupon)
}

const fromProjection = (p: Projection, rest: Pick<TabSource, 'workerArrivals' | 'resetWorker' | 'workerIsolated'>): TabSource => ({
  counter: () => p.counter(),
  seq: () => p.seq(),
  subscribe: (listener) => p.subscribe(listener),
  useSeq: () => p.useSeq(),
  controls: { projection: () => p.kind },
  ...rest,
})

const heartbeatMs = (params: URLSearchParams): number => Number(params.get('hb') ?? HEARTBEAT_INTERVAL_MS)

export const perTabSocket = async (ctx: SourceContext): Promise<TabSource> => {
  const projection = await makeProjection({ seq: 0, cardCoupon: { my: 0, activationCode: 0, coupon: 0 } })
  const ws = new WebSocket(ctx.params.get('ws')!)
  ws.addEventListener('message', (e) => {
    const t = now()
    const text = e.data as string
    const delivered = frameToEvent(projection.state(), text)
    if (delivered === null) return
    ctx.onArrival(frameId(text), t)
    report(ctx, delivered)
    projection.apply([delivered])
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

const baselineWorker = async (ctx: SourceContext): Promise<Comlink.Remote<BaselineApi>> => {
  const name = ctx.params.get('worker') ?? 'bench-baseline'
  const worker = new SharedWorker(new URL('./baseline-worker.ts', import.meta.url), { type: 'module', name })
  const api = Comlink.wrap<BaselineApi>(worker.port)
  await api.open(ctx.params.get('ws')!, heartbeatMs(ctx.params))
  return api
}

const workerControls = (api: Comlink.Remote<BaselineApi>): Pick<TabSource, 'workerArrivals' | 'resetWorker' | 'workerIsolated'> => ({
  workerArrivals: () => api.arrivals(),
  resetWorker: () => api.reset(),
  workerIsolated: () => api.crossOriginIsolated(),
})

export const comlinkCallback = async (ctx: SourceContext): Promise<TabSource> => {
  const api = await baselineWorker(ctx)
  let projection: Projection | null = null
  const early: Delivered[] = []
  const snapshot = await api.attachCallback(Comlink.proxy((delivered: Delivered) => {
    if (projection === null) return void early.push(delivered)
    report(ctx, delivered)
    projection.apply([delivered])
  }))
  projection = await makeProjection(snapshot)
  projection.apply(early)
  return fromProjection(projection, workerControls(api))
}

export const rawPortBatches = async (ctx: SourceContext): Promise<TabSource> => {
  const api = await baselineWorker(ctx)
  const channel = new MessageChannel()
  const snapshot = await api.attachPort(Comlink.transfer(channel.port2, [channel.port2]))
  const projection = await makeProjection(snapshot)
  channel.port1.onmessage = (e: MessageEvent<Delivered[]>) => {
    for (const delivered of e.data) report(ctx, delivered)
    projection.apply(e.data)
  }
  return fromProjection(projection, workerControls(api))
}
