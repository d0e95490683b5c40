// Counters slice: the cardCouponPush counters (my, activationCode, coupon) of §3.
import type { CardCouponCounters, CoreEvent } from '../../../worker/protocol/events.ts'

export type CountersState = CardCouponCounters

export const initialCounters: CountersState = { my: 0, activationCode: 0, coupon: 0 }

export const reduceCounters = (state: CountersState, event: CoreEvent): CountersState =>
  event._tag === 'CardCouponChanged' ? event.counters : state
