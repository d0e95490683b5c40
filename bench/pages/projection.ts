// The tab projection the baselines reduce into: the product's own store (src/store/app-store.ts), folded the way the
// product tab folds (product-api.ts), so baselines and product do the same tab work; the bench store while the product
// store is missing or does not build.
import { useSyncExternalStore } from 'react'
import { applyBenchBatch, makeBenchStore, type BenchDelivered, type BenchState, type CounterForm } from './bench-store.ts'
import { productFold } from './product-api.ts'

export interface Projection {
  readonly kind: 'product store' | 'bench store'
  /** the counter event form the store takes (the bench store takes both). */
  readonly form: CounterForm
  counter(): number
  subscribe(listener: () => void): () => void
  useCounter(): number
  apply(batch: ReadonlyArray<BenchDelivered>): void
}

const over = (
  kind: Projection['kind'], form: CounterForm, store: { getState(): { counters: { coupon: number } }; subscribe(l: () => void): () => void },
  apply: Projection['apply'],
): Projection => {
  const counter = () => store.getState().counters.coupon
  const subscribe = (listener: () => void) => store.subscribe(listener)
  return { kind, form, counter, subscribe, useCounter: () => useSyncExternalStore(subscribe, counter), apply }
}

export const makeProjection = async (initial: BenchState): Promise<Projection> => {
  const product = await productFold(initial)
  if (product) return over('product store', product.form, product.store, product.apply)
  const store = makeBenchStore(initial)
  return over('bench store', 'increment', store, (batch) => applyBenchBatch(store, batch))
}
