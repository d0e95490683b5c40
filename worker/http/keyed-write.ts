// How the core sends one keyed write (issue 40) until it knows the outcome. The write goes into the persisted log
// first, then out with its idempotency key; a lost answer (no connection, a cut answer, the 60 s timeout, HTTP 5xx: the
// server may or may not have applied it) is followed by the same write with the same key, so the server applies it
// at most once and answers every copy with the same outcome. Past WRITE_WINDOW_MS without an answer the core stops
// asking for the write and asks the server to settle the key as not applied instead: the answer is then the truth
// either way (the stored outcome, or "not applied", after which no late copy can apply it). Only when even that gets
// no answer is the customer told the outcome is being confirmed; the write stays in the log and the next core (or
// the next start) asks again. Pure of the pipeline, so its delivery is tested with generated faults.
import * as Effect from 'effect/Effect'
import { WRITE_RETRY_MS, WRITE_WINDOW_MS } from '../protocol/idempotency.ts'
import { core } from '../texts.ts'
import type { Outcome } from './response-rules.ts'
import type { PendingWrite, WriteLog } from './write-log.ts'

/** Sends of "settle as not applied" before the customer is told the outcome is still being confirmed. */
export const ABANDON_TRIES = 3
export const ABANDON_PAUSE_MS = 1_000

/** No answer from the server itself: the write may or may not have been applied. */
export const answerLost = (o: Outcome): boolean =>
  (o.kind === 'fail' || o.kind === 'silent') && (o.status === 0 || (o.status >= 500 && o.status <= 599))

export const unconfirmed: Outcome = { kind: 'fail', status: 0, msg: core.writeUnconfirmed, toast: true }

export interface KeyedSend {
  readonly write: PendingWrite
  readonly send: (abandon: boolean) => Effect.Effect<Outcome>
  readonly log: Pick<WriteLog, 'get' | 'put' | 'settle'>
  readonly sleep: (ms: number) => Effect.Effect<void>
  /** the core's clock (a test clock in unit tests). */
  readonly now: Effect.Effect<number>
  /** false once the session the write was sent in has ended: the write goes with it. */
  readonly current: () => boolean
}

export const sendUntilSettled = (r: KeyedSend): Effect.Effect<Outcome> =>
  Effect.gen(function* () {
    let write = r.log.get(r.write.key) ?? r.write
    // on disk before it leaves: a core killed while it is on its way sends it again at its start
    if (r.log.get(write.key) === undefined) yield* r.log.put(write)
    let abandons = 0
    for (let attempt = 0; ; attempt++) {
      if (!r.current()) {
        yield* r.log.settle(write.key)
        return unconfirmed
      }
      if (!write.abandoning && (yield* r.now) - write.issuedAt >= WRITE_WINDOW_MS) {
        write = { ...write, abandoning: true }
        yield* r.log.put(write)
      }
      const outcome = yield* r.send(write.abandoning)
      if (!answerLost(outcome)) {
        yield* r.log.settle(write.key)
        return outcome
      }
      if (write.abandoning) {
        if (++abandons >= ABANDON_TRIES) return unconfirmed
        yield* r.sleep(ABANDON_PAUSE_MS)
      } else {
        const left = write.issuedAt + WRITE_WINDOW_MS - (yield* r.now)
        yield* r.sleep(Math.max(0, Math.min(WRITE_RETRY_MS[Math.min(attempt, WRITE_RETRY_MS.length - 1)]!, left)))
      }
    }
  })
