// Group control's ledger in the core (issue 23, worker/group/group-ledger.ts) and its projection (the `group` slice):
// a command is recorded before it is sent, every tab folds the same per-phone results, a command without an answer is
// sent again (same id) until it has one, a new core resumes what the last one left unanswered, a refusal of the whole
// command fails every phone with the server's reason, and only failed phones are retried.
import * as Effect from 'effect/Effect'
import * as TestClock from 'effect/testing/TestClock'
import { describe, expect, it } from 'vitest'
import { GroupLedger } from '../../../worker/group/group-ledger.ts'
import type { GroupCommand, StateEvent } from '../../../worker/protocol/events.ts'
import { GROUP_LEDGER_KEEP, type GroupPhoneResult } from '../../../worker/protocol/group.ts'
import { initialShared, reduce } from '../../../worker/protocol/projection/index.ts'
import { failedPhones, initialGroup, outcomeOf, pendingPhones, reduceGroup } from '../../../worker/protocol/projection/group.ts'
import { code, eventsOf, ok, runCore, settle, type Reply } from './harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138', deviceStatId: 'dev-1' }
const GROUP = '/api/resources/card/group/command'
const ID = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890'
const ID2 = '7a1c2d3e-4a5b-4c6d-8e7f-901234567891'

const result = (userCardId: number, ok: boolean, msg = ok ? '操作成功' : '云手机已过期，请续费后使用'): GroupPhoneResult =>
  ({ userCardId, diskName: `云手机${userCardId}`, ok, status: ok ? 0 : 1005, msg, ms: 12 })

/** the server as the ledger sees it: each phone answered from the request's list. */
const answerAll = (failing: ReadonlyArray<number> = []) => (req: { body: unknown }): Reply => {
  const body = req.body as { commandId: string; userCardIds: number[] }
  return ok({ commandId: body.commandId, results: body.userCardIds.map((id) => result(id, !failing.includes(id))) })
}

const command = (over: Partial<GroupCommand> = {}): GroupCommand => ({
  id: ID, action: 'reboot', phones: [1, 2, 3].map((userCardId) => ({ userCardId, diskName: `云手机${userCardId}` })),
  text: null, fileId: null, fileName: null, retryOf: null, issuedAt: 1000, ...over,
})

describe('the group slice (projection)', () => {
  it('records a command once, folds per-phone answers, fails every phone on a refusal, and keeps the recent ones', () => {
    let s = reduceGroup(initialGroup, { _tag: 'GroupCommandIssued', command: command() })
    s = reduceGroup(s, { _tag: 'GroupCommandIssued', command: command() })
    expect(s.commands).toHaveLength(1)
    const record0 = s.commands[0]!
    expect([1, 2, 3].map((id) => outcomeOf(record0, id).kind)).toEqual(['pending', 'pending', 'pending'])
    s = reduceGroup(s, { _tag: 'GroupCommandAnswered', id: ID, results: [result(1, true), result(2, false), result(99, true)], at: 2000 })
    const r = s.commands[0]!
    expect(outcomeOf(r, 1)).toEqual({ kind: 'ok', ms: 12 })
    expect(outcomeOf(r, 2)).toEqual({ kind: 'failed', status: 1005, msg: '云手机已过期，请续费后使用' })
    expect(outcomeOf(r, 3)).toEqual({ kind: 'pending' })
    // a phone that was not chosen is not part of the command's grid
    expect(r.results.map((x) => x.userCardId)).toEqual([1, 2])
    expect(pendingPhones(r)).toEqual([3])
    expect(failedPhones(r)).toEqual([2])
    // the same answer again (a re-send) changes nothing a tab shows
    const again = reduceGroup(s, { _tag: 'GroupCommandAnswered', id: ID, results: [result(1, true)], at: 3000 })
    expect(again.commands[0]!.results).toEqual(r.results)

    const refused = reduceGroup(reduceGroup(initialGroup, { _tag: 'GroupCommandIssued', command: command({ id: ID2 }) }),
      { _tag: 'GroupCommandRefused', id: ID2, status: 1203, msg: '一次最多操作60台云手机', at: 5 })
    expect(failedPhones(refused.commands[0]!)).toEqual([1, 2, 3])
    expect(pendingPhones(refused.commands[0]!)).toEqual([])

    let many = initialGroup
    for (let i = 0; i < GROUP_LEDGER_KEEP + 5; i++) many = reduceGroup(many, { _tag: 'GroupCommandIssued', command: command({ id: `id-${i}` }) })
    expect(many.commands).toHaveLength(GROUP_LEDGER_KEEP)
    expect(many.commands[0]!.command.id).toBe(`id-${GROUP_LEDGER_KEEP + 4}`)
  })

  it('starts over with the account (an exit or another login)', () => {
    const events: StateEvent[] = [
      { _tag: 'SessionChanged', user: { username: 'demo', userType: 1, phone: '' }, phone: null },
      { _tag: 'GroupCommandIssued', command: command() },
      { _tag: 'SessionEnded', end: { at: 1, reason: null, notice: null, redirect: true } },
    ]
    let s = initialShared
    events.slice(0, 2).forEach((e, i) => { s = reduce(s, e, i + 1) })
    expect(s.group.commands).toHaveLength(1)
    s = reduce(s, events[2]!, 3)
    expect(s.group.commands).toHaveLength(0)
  })
})

describe('the core ledger', () => {
  it('records the command, sends it once with its id, and every tab folds the same results', () =>
    runCore({ storage: loggedIn, routes: { [GROUP]: answerAll([3]) } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const b = yield* h.addTab('b')
      const ledger = yield* GroupLedger
      const r = yield* ledger.run({ id: ID, action: 'reboot', userCardIds: [1, 2, 3] })
      expect(r).toEqual({ ok: true, data: { id: ID } })
      // asked again (a tab's replay after a worker death): the same command, not a second one
      yield* ledger.run({ id: ID, action: 'reboot', userCardIds: [1, 2, 3] })
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      yield* settle
      expect(h.requestsTo(GROUP)).toHaveLength(1)
      expect(h.requestsTo(GROUP)[0]!.body).toEqual({ commandId: ID, action: 'reboot', userCardIds: [1, 2, 3] })
      expect(eventsOf(a, 'GroupCommandIssued')).toHaveLength(1)
      const stateA = a.receiver.state().group
      expect(stateA).toEqual(b.receiver.state().group)
      const record = stateA.commands[0]!
      expect([1, 2, 3].map((id) => outcomeOf(record, id).kind)).toEqual(['ok', 'ok', 'failed'])
    })))

  it('sends a command that got no answer again, with the same id, until it has one', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('a')
      let calls = 0
      h.routes[GROUP] = (req) => (++calls <= 2 ? (calls === 1 ? { network: true } : { http: 502, body: 'bad gateway' }) : answerAll()(req))
      const ledger = yield* GroupLedger
      yield* ledger.run({ id: ID, action: 'text', text: '你好', userCardIds: [5, 6] })
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      expect(h.requestsTo(GROUP)).toHaveLength(1)
      expect(outcomeOf(tab.receiver.state().group.commands[0]!, 5).kind).toBe('pending')
      yield* TestClock.adjust(1_000)
      yield* settle
      yield* TestClock.adjust(2_000)
      yield* settle
      yield* settle
      const sent = h.requestsTo(GROUP).map((r) => r.body)
      expect(sent).toHaveLength(3)
      for (const body of sent) expect(body).toEqual({ commandId: ID, action: 'text', text: '你好', userCardIds: [5, 6] })
      expect(failedPhones(tab.receiver.state().group.commands[0]!)).toEqual([])
      expect(pendingPhones(tab.receiver.state().group.commands[0]!)).toEqual([])
    })))

  it('fails every phone with the server\'s reason when it refuses the whole command (no retry)', () =>
    runCore({ storage: loggedIn, routes: { [GROUP]: () => code(1203, '一次最多操作60台云手机') } }, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('a')
      yield* (yield* GroupLedger).run({ id: ID, action: 'reboot', userCardIds: [1, 2] })
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      yield* TestClock.adjust(60_000)
      yield* settle
      expect(h.requestsTo(GROUP)).toHaveLength(1)
      const record = tab.receiver.state().group.commands[0]!
      expect(outcomeOf(record, 1)).toEqual({ kind: 'failed', status: 1203, msg: '一次最多操作60台云手机' })
    })))

  it('a new core resumes what the last one left unanswered: the pending phones only, with the same id', () => {
    const base = initialShared
    let state = reduce(base, { _tag: 'SessionChanged', user: { username: 'demo', userType: 1, phone: '138' }, phone: '138' }, 1)
    state = reduce(state, { _tag: 'GroupCommandIssued', command: command() }, 2)
    state = reduce(state, { _tag: 'GroupCommandAnswered', id: ID, results: [result(1, true)], at: 3 }, 3)
    return runCore({ storage: loggedIn, persisted: { generation: 'dead-worker', state }, routes: { [GROUP]: answerAll() }, launch: true }, (h) =>
      Effect.gen(function* () {
        const tab = yield* h.addTab('a')
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
        yield* settle
        expect(h.requestsTo(GROUP).map((r) => r.body)).toEqual([{ commandId: ID, action: 'reboot', userCardIds: [2, 3] }])
        const record = tab.receiver.state().group.commands[0]!
        expect([1, 2, 3].map((id) => outcomeOf(record, id).kind)).toEqual(['ok', 'ok', 'ok'])
      }))
  })

  it('retries the failed phones only, as a new command that names the one it retries', () =>
    runCore({ storage: loggedIn, routes: { [GROUP]: answerAll([2, 3]) } }, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('a')
      const ledger = yield* GroupLedger
      yield* ledger.run({ id: ID, action: 'repair', userCardIds: [1, 2, 3] })
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      const failed = failedPhones(tab.receiver.state().group.commands[0]!)
      expect(failed).toEqual([2, 3])
      h.routes[GROUP] = answerAll()
      yield* ledger.run({ id: ID2, action: 'repair', userCardIds: failed, retryOf: ID })
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      expect(h.requestsTo(GROUP).at(-1)!.body).toEqual({ commandId: ID2, action: 'repair', userCardIds: [2, 3] })
      const [retry, original] = tab.receiver.state().group.commands
      expect(retry!.command.retryOf).toBe(ID)
      expect(failedPhones(retry!)).toEqual([])
      // the original keeps its results
      expect(failedPhones(original!)).toEqual([2, 3])
    })))

  it('does not record a malformed command from a tab', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('a')
      const r = yield* (yield* GroupLedger).run({ id: 'x', action: 'reboot', userCardIds: [1] })
      expect(r.ok).toBe(false)
      yield* settle
      expect(tab.receiver.state().group.commands).toHaveLength(0)
      expect(h.requestsTo(GROUP)).toHaveLength(0)
    })))
})
