// The baselines' tab projection: a zustand vanilla store reduced from delivered events, as the product's tab does.
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CardCouponCounters, Delivered } from '../../worker/protocol/events.ts'

export interface BenchState {
  readonly seq: number
  readonly cardCoupon: CardCouponCounters
}

export const reduce = (state: BenchState, delivered: Delivered): BenchState =>
  delivered.event._tag === 'CardCouponChanged'
    ? { seq: delivered.seq ?? state.seq, cardCoupon: delivered.event.counters }
    : state

export const makeBenchStore = (initial: BenchState): StoreApi<BenchState> => createStore<BenchState>(() => initial)

export const applyBatch = (store: StoreApi<BenchState>, batch: ReadonlyArray<Delivered>): void =>
  store.setState(batch.reduce(reduce, store.getState()), true)

/** what a per-tab socket does with a frame: the core's counter rule, run in the tab. */
export const frameToEvent = (state: BenchState, text: string): Delivered | null => {
  const message = JSON.parse(text) as { type?: string }
  if (message.type !== 'sendCouponMsg') return null
  const c = state.cardCoupon
  return { seq: state.seq + 1, event: { _tag: 'CardCouponChanged', counters: { ...c, my: c.my + 1, coupon: c.coupon + 1 } } }
}
