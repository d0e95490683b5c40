// The product path as a tab source: the real core client (src/core/connect.ts, its worker with the socket probe in
// front) and the real tab store (src/store/app-store.ts). ?dedicated=1 runs the core's dedicated-Worker fallback.
import { useSyncExternalStore } from 'react'
import { follow, loadConnect, loadStoreModule } from './product-api.ts'
import type { SourceContext, TabSource } from './tab-source.ts'
import type { ProbeAsk } from './ws-probe.ts'

interface ChaosState {
  readonly seq: number
  readonly session: { readonly loggedIn: boolean }
  readonly push: { readonly status: string }
  readonly devices: { readonly list: ReadonlyArray<{ readonly userCardId: number; readonly diskName: string; readonly validTime: number }> }
}

const DEMO = { phone: '13800138000', password: 'Demo@2026' }

/**
 * Asks the socket probe inside the core's worker(s) (bench/pages/ws-probe.ts). The dedicated fallback runs one worker
 * per tab, so replies are gathered for a short while after the first and arrivals merged (earliest per message).
 */
const askProbe = <T,>(ask: ProbeAsk, timeoutMs = 10_000, gatherMs = 150): Promise<T[]> =>
  new Promise<T[]>((resolve, reject) => {
    const channel = new BroadcastChannel('bench-ws-probe')
    const reply = crypto.randomUUID()
    const values: T[] = []
    const done = () => {
      channel.close()
      resolve(values)
    }
    const timer = setTimeout(() => {
      channel.close()
      reject(new Error(`socket probe did not answer ${ask}: is the core running with the bench probe?`))
    }, timeoutMs)
    channel.onmessage = (e: MessageEvent<{ reply?: string; value: T }>) => {
      if (e.data.reply !== reply) return
      if (values.length === 0) {
        clearTimeout(timer)
        setTimeout(done, gatherMs)
      }
      values.push(e.data.value)
    }
    channel.postMessage({ ask, reply })
  })

const earliestArrivals = (replies: ReadonlyArray<Array<[number, number]>>): Array<[number, number]> => {
  const first = new Map<number, number>()
  for (const pairs of replies) for (const [id, t] of pairs) if (!(first.get(id)! <= t)) first.set(id, t)
  return [...first]
}

export const productSource = async (ctx: SourceContext): Promise<TabSource> => {
  // the core's own test-only config (src/core/connect.ts): a shortened heartbeat, the dedicated fallback
  const hb = ctx.params.get('hb')
  const dedicated = ctx.params.get('dedicated') === '1'
  // the chaos part's tabs (?chaos=1) get their own core, whose push socket stays on the real server (ws-probe.ts)
  const chaos = ctx.params.get('chaos') === '1'
  if (hb !== null || dedicated || chaos) {
    globalThis.__CORE_TEST_CONFIG__ = {
      workerName: ctx.params.get('worker') ?? 'bench-product',
      ...(hb !== null ? { heartbeatMs: Number(hb) } : {}),
      ...(dedicated ? { forceDedicated: true } : {}),
    }
  }
  const { connectCore } = await loadConnect()
  const storeModule = await loadStoreModule()
  if (!storeModule) throw new Error('src/store/app-store.ts is missing')
  const core = await connectCore({
    channelCode: null,
    route: { path: ctx.params.get('route') ?? '/bench', search: {}, viewerCardId: null, oneClickRepair: false },
    visible: true,
  })
  const store = storeModule.createAppStore()
  follow(core, store)
  let killedAt: number | null = null
  const counter = () => store.getState().counters.coupon
  const subscribe = (listener: () => void) => store.subscribe(listener)
  return {
    counter,
    subscribe,
    useCounter: () => useSyncExternalStore(subscribe, counter),
    workerArrivals: async () => earliestArrivals(await askProbe<Array<[number, number]>>('arrivals')),
    resetWorker: () => askProbe<null>('reset').then(() => undefined),
    workerIsolated: async () => (await askProbe<{ crossOriginIsolated: boolean }>('info'))[0].crossOriginIsolated,
    controls: {
      login: () => core.api.login(DEMO),
      loggedIn: () => store.getState().session.loggedIn,
      pushStatus: () => store.getState().push.status,
      mode: () => core.mode,
      probeInfo: () => askProbe('info'),
      // the moment to kill the worker mid-flood (bench/parts/worker-kill.ts kills it from outside, through the DevTools
      // protocol): armed before the flood, `killedAt` is the counter this tab's store first showed at or past `counter`
      armKill: (counter: number) => {
        const stop = store.subscribe(() => {
          const shown = store.getState().counters.coupon
          if (shown < counter) return
          stop()
          killedAt = shown
        })
      },
      killedAt: () => killedAt,
      // the chaos part (bench/parts/chaos.ts): a write through the core as a screen makes it, and what the tab shows
      call: (name: string, payload: unknown) => core.api.call(name, payload),
      // what a screen does after a finished order (src/features/pay/use-finished-order.ts)
      refreshDevices: () => core.api.refreshDevices(),
      chaosView: () => {
        const s = (core.state?.() ?? null) as ChaosState | null
        return s === null ? null : {
          seq: s.seq, loggedIn: s.session.loggedIn, push: s.push.status,
          devices: s.devices.list.map((d) => ({ userCardId: d.userCardId, diskName: d.diskName, validTime: d.validTime })),
        }
      },
    },
  }
}
