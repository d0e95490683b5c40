// The tab projection the baselines reduce into: the product's own store (src/store/app-store.ts) when it exists, so
// baselines and product do the same reduce work; the bench store while it is missing or does not build.
import { useStore } from 'zustand'
import type { Delivered } from '../../worker/protocol/events.ts'
import { applyBatch, makeBenchStore, type BenchState } from './bench-store.ts'

export interface Projection {
  readonly kind: 'product store' | 'bench store'
  state(): BenchState
  counter(): number
  seq(): number
  subscribe(listener: () => void): () => void
  useSeq(): number
  apply(batch: ReadonlyArray<Delivered>): void
}

type AppStoreModule = typeof import('../../src/store/app-store.ts')
// a glob, not an import: it resolves to nothing (instead of failing) while the product store is missing
const productStore = import.meta.glob<AppStoreModule>('/src/store/app-store.ts')

export const makeProjection = async (initial: BenchState): Promise<Projection> => {
  const load = Object.values(productStore)[0]
  const created = load ? await load().then((m) => m.createAppStore(), () => null) : null
  if (created) {
    const store = created
    store.setState({ seq: initial.seq, counters: initial.cardCoupon })
    return {
      kind: 'product store',
      state: () => ({ seq: store.getState().seq, cardCoupon: store.getState().counters }),
      counter: () => store.getState().counters.coupon,
      seq: () => store.getState().seq,
      subscribe: (listener) => store.subscribe(listener),
      useSeq: () => useStore(store, (s) => s.seq),
      apply: (batch) => store.getState().applyBatch(batch),
    }
  }
  const store = makeBenchStore(initial)
  return {
    kind: 'bench store',
    state: () => store.getState(),
    counter: () => store.getState().cardCoupon.coupon,
    seq: () => store.getState().seq,
    subscribe: (listener) => store.subscribe(listener),
    useSeq: () => useStore(store, (s) => s.seq),
    apply: (batch) => applyBatch(store, batch),
  }
}
