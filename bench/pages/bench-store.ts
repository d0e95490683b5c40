// The counter rule the baselines run for each sendCouponMsg frame (the core's rule: coupon and `my` + 1), the state
// event it becomes in the product's event form, and the bench's own store for when the product store is missing.
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CardCouponCounters } from '../../worker/protocol/events.ts'

export interface BenchState {
  readonly seq: number
  readonly counters: CardCouponCounters
}

export const initialBenchState: BenchState = { seq: 0, counters: { my: 0, activationCode: 0, coupon: 0 } }

/**
 * How the product's store takes a counter push: as an increment event (runtime v2, CounterIncremented) or as the
 * counters after it (runtime v1, CardCouponChanged). Detected from the store itself (projection.ts), so the
 * baselines hand the product's store exactly the events the core would.
 */
export type CounterForm = 'increment' | 'counters'

export type BenchEvent =
  | { readonly _tag: 'CounterIncremented'; readonly kind: 'coupon' }
  | { readonly _tag: 'CardCouponChanged'; readonly counters: CardCouponCounters }
export interface BenchDelivered {
  readonly seq: number
  readonly event: BenchEvent
}

/** what a baseline does with a frame: decode it and, for a sendCouponMsg, the next state and its event. */
export const frameToEvent = (state: BenchState, text: string, form: CounterForm): { state: BenchState; delivered: BenchDelivered } | null => {
  const message = JSON.parse(text) as { type?: string }
  if (message.type !== 'sendCouponMsg') return null
  const c = state.counters
  const next: BenchState = { seq: state.seq + 1, counters: { ...c, my: c.my + 1, coupon: c.coupon + 1 } }
  const event: BenchEvent = form === 'increment' ? { _tag: 'CounterIncremented', kind: 'coupon' } : { _tag: 'CardCouponChanged', counters: next.counters }
  return { state: next, delivered: { seq: next.seq, event } }
}

const reduce = (state: BenchState, d: BenchDelivered): BenchState => ({
  seq: d.seq,
  counters: d.event._tag === 'CardCouponChanged' ? d.event.counters : { ...state.counters, my: state.counters.my + 1, coupon: state.counters.coupon + 1 },
})

export const makeBenchStore = (initial: BenchState): StoreApi<BenchState> => createStore<BenchState>(() => initial)

export const applyBenchBatch = (store: StoreApi<BenchState>, batch: ReadonlyArray<BenchDelivered>): void =>
  store.setState(batch.reduce(reduce, store.getState()), true)
