// The one push message every dispatch and flood run sends: sendCouponMsg, which makes the core bump the
// coupon counter, so message k shows up in every tab's store as counter base + k.
import type { PushMessage } from '../../worker/protocol/push.ts'

export const BENCH_PREFIX = 'bench:'

export const benchMessage = (id: number): PushMessage => ({ type: 'sendCouponMsg', data: { content: `${BENCH_PREFIX}${id}` } })
export const benchFrame = (id: number): string => JSON.stringify(benchMessage(id))

/** the id a bench frame carries, or 0 for any other frame (heartbeat answers, real pushes). */
export const frameId = (text: string): number => {
  const at = text.indexOf(BENCH_PREFIX)
  return at < 0 ? 0 : parseInt(text.slice(at + BENCH_PREFIX.length), 10) || 0
}

/** the push socket URL's query parameter naming its delivery path (set by the baselines' tab URL and the product's socket probe). */
export const BENCH_PATH_PARAM = 'benchPath'
