// Counters slice: the cardCouponPush counters (my, activationCode, coupon) of §3. Pushes arrive as increments, so the
// count is a fold of the log: no read-modify-write outside the projection can lose one.
import type { CardCouponCounters, CoreEvent } from '../events.ts'

export type CountersSlice = CardCouponCounters

export const initialCounters: CountersSlice = { my: 0, activationCode: 0, coupon: 0 }

export const reduceCounters = (state: CountersSlice, event: CoreEvent): CountersSlice =>
  event._tag === 'CounterIncremented'
    ? { ...state, my: state.my + 1, [event.kind]: state[event.kind] + 1 }
    : state
