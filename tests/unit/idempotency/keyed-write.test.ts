// Issue 40 item 2, the core's half: a keyed write sent through generated faults (refused before it arrives, applied
// and its answer cut, 502 after applying, a timeout, the server down for a while) is applied at most once; the
// customer is told it was applied only if it was, "not applied" only if it never will be, and "being confirmed"
// (the write kept in the persisted log for the next core) only when the server could not be reached at all.
import * as Effect from 'effect/Effect'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { answerLost, sendUntilSettled, unconfirmed } from '../../../worker/http/keyed-write.ts'
import type { Outcome } from '../../../worker/http/response-rules.ts'
import type { PendingWrite } from '../../../worker/http/write-log.ts'
import { NOT_APPLIED_MSG, NOT_APPLIED_STATUS, WRITE_WINDOW_MS } from '../../../worker/protocol/idempotency.ts'

type Fault = 'ok' | 'refusedBeforeArrival' | 'cutAfterApply' | 'badGateway' | 'badGatewayAfterApply' | 'timeout'

const fault = fc.constantFrom<Fault>('ok', 'refusedBeforeArrival', 'cutAfterApply', 'badGateway', 'badGatewayAfterApply', 'timeout')
const lostAnswer: Outcome = { kind: 'fail', status: 0, msg: '服务器错误', toast: false }

const simulate = (faults: ReadonlyArray<Fault>, refusal: boolean) => {
  let now = 1_000
  let applied = 0
  let stored: Outcome | null = null
  let sends = 0
  const log = new Map<string, PendingWrite>()
  const write: PendingWrite = { key: 'k'.repeat(32), username: 'u', name: 'orderCreate', payload: {}, channelCode: null, issuedAt: now, abandoning: false }
  const serverDoes = (abandon: boolean): Outcome => {
    if (stored === null) {
      if (abandon) stored = { kind: 'fail', status: NOT_APPLIED_STATUS, msg: NOT_APPLIED_MSG, toast: true }
      else if (refusal) stored = { kind: 'fail', status: 1003, msg: '余额不足', toast: true }
      else {
        applied += 1
        stored = { kind: 'ok', data: { myOrderNum: '1' } }
      }
    }
    return stored
  }
  const program = sendUntilSettled({
    write,
    log: {
      get: (key) => log.get(key),
      put: (w) => Effect.sync(() => void log.set(w.key, w)),
      settle: (key) => Effect.sync(() => void log.delete(key)),
    },
    now: Effect.sync(() => now),
    sleep: (ms) => Effect.sync(() => { now += ms }),
    current: () => true,
    send: (abandon) => Effect.sync(() => {
      // on disk before it leaves, every time
      expect(log.has(write.key)).toBe(true)
      const f = faults[sends++] ?? 'ok'
      switch (f) {
        case 'ok': return serverDoes(abandon)
        case 'refusedBeforeArrival': now += 5; return lostAnswer
        case 'cutAfterApply': serverDoes(abandon); now += 5; return lostAnswer
        case 'badGateway': now += 5; return { kind: 'fail', status: 502, msg: '服务器错误', toast: false } as Outcome
        case 'badGatewayAfterApply': serverDoes(abandon); return { kind: 'fail', status: 502, msg: '服务器错误', toast: false } as Outcome
        case 'timeout': now += 60_000; return lostAnswer
      }
    }),
  })
  const outcome = Effect.runSync(program)
  return { outcome, applied, stored: stored as Outcome | null, log, sends, elapsed: now - write.issuedAt }
}

describe('a keyed write through faults', () => {
  it('is applied at most once, and the customer is told the truth', () => {
    fc.assert(fc.property(fc.array(fault, { maxLength: 40 }), fc.boolean(), (faults, refusal) => {
      const r = simulate(faults, refusal)
      expect(r.applied).toBeLessThanOrEqual(1)
      if (r.outcome === unconfirmed) {
        // nothing heard from the server: the write stays in the log for the next core to settle
        expect(r.log.size).toBe(1)
        expect([...r.log.values()][0]!.abandoning).toBe(true)
        return
      }
      expect(answerLost(r.outcome)).toBe(false)
      expect(r.log.size).toBe(0)
      // what the tab is told is what the server stored for the key, whichever copy brought it back
      expect(r.outcome).toEqual(r.stored)
      if (r.outcome.kind === 'ok') expect(r.applied).toBe(1)
      if (r.outcome.kind === 'fail' && r.outcome.status === NOT_APPLIED_STATUS) {
        expect(r.applied).toBe(0)
        expect(r.elapsed).toBeGreaterThanOrEqual(WRITE_WINDOW_MS)
      }
    }), { numRuns: 500 })
  })

  it('an answer cut after the server applied it is answered with the order, not 服务器错误', () => {
    const r = simulate(['cutAfterApply', 'badGateway'], false)
    expect(r.outcome).toEqual({ kind: 'ok', data: { myOrderNum: '1' } })
    expect(r.applied).toBe(1)
    expect(r.sends).toBe(3)
  })

  it('a server down past the window: the key is settled "not applied" once it answers', () => {
    const r = simulate(Array<Fault>(12).fill('refusedBeforeArrival').concat(['ok']), false)
    expect(r.applied).toBe(0)
    expect(r.outcome).toMatchObject({ status: NOT_APPLIED_STATUS })
  })
})
