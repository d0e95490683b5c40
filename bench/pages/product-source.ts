// The product path as a tab source: the real core client (src/core/connect.ts, its SharedWorker with the socket probe
// in front) and the real tab store (src/store/app-store.ts).
import { useStore } from 'zustand'
import type { EventBatch } from '../../worker/protocol/events.ts'
import type { Snapshot } from '../../worker/protocol/commands.ts'
import type { SourceContext, TabSource } from './tab-source.ts'

type ConnectModule = typeof import('../../src/core/connect.ts')
type StoreModule = typeof import('../../src/store/app-store.ts')
// globs, not imports: while the product is incomplete the bench build still succeeds and only this path fails
const connectModule = import.meta.glob<ConnectModule>('/src/core/connect.ts')
const storeModule = import.meta.glob<StoreModule>('/src/store/app-store.ts')

const load = async <M,>(modules: Record<string, () => Promise<M>>, what: string): Promise<M> => {
  const loader = Object.values(modules)[0]
  if (!loader) throw new Error(`${what} is missing`)
  return loader()
}

const DEMO = { phone: '13800138000', password: 'Demo@2026' }

/** asks the socket probe inside the core's worker (bench/pages/ws-probe.ts). */
const askProbe = <T,>(ask: 'arrivals' | 'reset' | 'info', timeoutMs = 10_000): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const channel = new BroadcastChannel('bench-ws-probe')
    const reply = crypto.randomUUID()
    const timer = setTimeout(() => {
      channel.close()
      reject(new Error(`socket probe did not answer ${ask}: is the core running with the bench probe?`))
    }, timeoutMs)
    channel.onmessage = (e: MessageEvent<{ reply?: string; value: T }>) => {
      if (e.data.reply !== reply) return
      clearTimeout(timer)
      channel.close()
      resolve(e.data.value)
    }
    channel.postMessage({ ask, reply })
  })

export const productSource = async (ctx: SourceContext): Promise<TabSource> => {
  // the core's own test-only config (src/core/connect.ts): a shortened heartbeat for the connections part
  const hb = ctx.params.get('hb')
  if (hb !== null) globalThis.__CORE_TEST_CONFIG__ = { heartbeatMs: Number(hb), workerName: 'bench-heartbeat' }
  const { connectCore } = await load(connectModule, 'src/core/connect.ts')
  const { createAppStore } = await load(storeModule, 'src/store/app-store.ts')
  const core = await connectCore({
    channelCode: null,
    route: { path: ctx.params.get('route') ?? '/bench', search: {}, viewerCardId: null, oneClickRepair: false },
    visible: true,
  })
  const store = createAppStore()
  store.getState().loadSnapshot(core.snapshot)
  core.onEvents((batch: EventBatch) => {
    for (const { seq, event } of batch) if (event._tag === 'CardCouponChanged' && seq !== null) ctx.onEvent(seq, event.counters.coupon)
    store.getState().applyBatch(batch)
  })
  core.onSnapshot((snapshot: Snapshot) => store.getState().loadSnapshot(snapshot))
  return {
    counter: () => store.getState().counters.coupon,
    seq: () => store.getState().seq,
    subscribe: (listener) => store.subscribe(listener),
    useSeq: () => useStore(store, (s) => s.seq),
    workerArrivals: () => askProbe<Array<[number, number]>>('arrivals'),
    resetWorker: () => askProbe<null>('reset').then(() => undefined),
    workerIsolated: () => askProbe<{ crossOriginIsolated: boolean }>('info').then((i) => i.crossOriginIsolated),
    controls: {
      login: () => core.api.login(DEMO),
      loggedIn: () => store.getState().session.loggedIn,
      pushStatus: () => store.getState().push.status,
      mode: () => core.mode,
      probeInfo: () => askProbe('info'),
    },
  }
}
