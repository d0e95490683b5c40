// The delivery model: the worker's fanout (worker/delivery/fanout.ts) and real tab receivers (src/core/receiver.ts)
// joined by simulated ports, driven through generated interleavings of publishes, effects, flushes, batch and ack
// deliveries, frozen tabs, tab reloads and worker deaths. For any interleaving, once every tab thaws and messages
// drain, every tab holds exactly the worker's state; no state event is applied twice or out of order; effects arrive
// at most once and in order; nothing stalls. Issue 21: tabs also send commands the worker has the server do, and a
// worker may die unnoticed with commands queued, done but unanswered, or still being sent to it; the tab's replay rule
// (src/core/replay.ts, the code connect.ts runs) must settle each exactly once and never repeat a change.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { DownBatch, Snapshot, UpMessage } from '../../../worker/protocol/commands.ts'
import type { EffectEvent, StateEvent } from '../../../worker/protocol/events.ts'
import { initialShared, reduce } from '../../../worker/protocol/projection/index.ts'
import { makeFanout, type Fanout } from '../../../worker/delivery/fanout.ts'
import { makeRecovery } from '../../../worker/events/recovery.ts'
import { createReceiver, type Receiver } from '../../../src/core/receiver.ts'
import { afterDeath, MAX_REPLAYS, interrupted, outcomeUnknown, withCallKey, type ReplayRule } from '../../../src/core/replay.ts'
import { catalogue, type EndpointName } from '../../../worker/protocol/catalogue.ts'
import { COMMAND_ON_DEATH } from '../../../worker/protocol/on-death.ts'

const user = (username: string) => ({ username, userType: 1, phone: '13800138000' })

const stateEvent: fc.Arbitrary<StateEvent> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<StateEvent>({ _tag: 'CounterIncremented', kind: 'coupon' }, { _tag: 'CounterIncremented', kind: 'activationCode' }) },
  { weight: 1, arbitrary: fc.boolean().map((active): StateEvent => ({ _tag: 'AnnouncementFlagChanged', active })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }).map((n): StateEvent => ({ _tag: 'DeviceListLoaded', devices: [], fetchedAt: n })) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b').map((u): StateEvent => ({ _tag: 'SessionChanged', user: user(u), phone: '13800138000' })) },
  { weight: 1, arbitrary: fc.constant<StateEvent>({ _tag: 'SessionEnded', end: { at: 1, reason: null, notice: null, redirect: true } }) },
)

type Command =
  | { readonly k: 'publish'; readonly events: ReadonlyArray<StateEvent> }
  | { readonly k: 'emit'; readonly to: number | 'all' }
  | { readonly k: 'flush' }
  | { readonly k: 'process'; readonly tab: number; readonly count: number }
  | { readonly k: 'ack'; readonly tab: number; readonly count: number }
  | { readonly k: 'freeze' | 'thaw' | 'reload'; readonly tab: number }
  | { readonly k: 'persist' }
  | { readonly k: 'kill' }
  // issue 21: commands a tab sends the core, the server doing them, and a worker dead before any tab noticed
  | { readonly k: 'send'; readonly tab: number; readonly cmd: number }
  | { readonly k: 'exec' }
  | { readonly k: 'answer' }
  | { readonly k: 'die' }

/** What a tab may send (issue 21): reads, a read mark (repeatable write), changes, sign-ins, a silent analytics write. */
const TAB_COMMANDS: ReadonlyArray<{ readonly prop: string; readonly args: ReadonlyArray<unknown> }> = [
  { prop: 'call', args: ['noticeAll', { pageNum: 1, pageSize: 10 }] },
  { prop: 'call', args: ['getDeviceList'] },
  { prop: 'call', args: ['readNotice', { id: 1 }] },
  { prop: 'call', args: ['rebootDevice', { userCardId: 1 }] },
  { prop: 'call', args: ['orderCreate', {}] },
  { prop: 'call', args: ['stat', {}] },
  { prop: 'login', args: [{ phone: '13800138000', password: 'x' }] },
  { prop: 'loginWithCode', args: [{ phone: '13800138000', code: '123456' }] },
  { prop: 'refreshDevices', args: [] },
]
/** The catalogue's replay rule, as a worker tells it on attach. */
const catalogueRule: ReplayRule = {
  repeatable: new Set((Object.keys(catalogue) as Array<EndpointName>).filter((n) => catalogue[n].repeatable)),
  silent: new Set((Object.keys(catalogue) as Array<EndpointName>).filter((n) => catalogue[n].silentFailure === true)),
  keyed: new Set((Object.keys(catalogue) as Array<EndpointName>).filter((n) => catalogue[n].idempotent === true)),
}
/** issue 40: a keyed write's key (the tab puts it in the call's third argument). */
const keyOf = (c: { readonly prop: string; readonly args: ReadonlyArray<unknown> }): string | null =>
  c.prop === 'call' && catalogue[c.args[0] as EndpointName].idempotent === true && typeof c.args[2] === 'string' ? c.args[2] : null
/** A command of the model: a read answers how many changes the server had done; a change answers ok. */
const isRead = (prop: string, args: ReadonlyArray<unknown>) =>
  prop === 'refreshDevices' || (prop === 'call' && (args[0] === 'noticeAll' || args[0] === 'getDeviceList'))

interface SentCommand {
  readonly id: number
  readonly tab: string
  readonly prop: string
  readonly args: ReadonlyArray<unknown>
  /** changes the server had answered ok (to anyone) when the tab first sent it. */
  readonly changesAnsweredBefore: number
  replays: number
  readonly answers: Array<unknown>
}
/** A command at a worker: queued, or done by the server and not yet answered (with the server's answer). */
interface AtWorker { readonly command: SentCommand; done: boolean; result?: unknown }

const commands = (tabs: number, withDeaths: boolean, events: fc.Arbitrary<StateEvent>, withCommands = false) => {
  const tab = fc.integer({ min: 0, max: tabs - 1 })
  const base: Array<fc.Arbitrary<Command>> = [
    fc.array(events, { minLength: 1, maxLength: 40 }).map((e): Command => ({ k: 'publish', events: e })),
    fc.oneof(tab, fc.constant<'all'>('all')).map((to): Command => ({ k: 'emit', to })),
    fc.constant<Command>({ k: 'flush' }),
    fc.record({ tab, count: fc.integer({ min: 1, max: 5 }) }).map((r): Command => ({ k: 'process', ...r })),
    fc.record({ tab, count: fc.integer({ min: 1, max: 5 }) }).map((r): Command => ({ k: 'ack', ...r })),
    tab.map((t): Command => ({ k: 'freeze', tab: t })),
    tab.map((t): Command => ({ k: 'thaw', tab: t })),
    tab.map((t): Command => ({ k: 'reload', tab: t })),
  ]
  if (withDeaths) base.push(fc.constant<Command>({ k: 'persist' }), fc.constant<Command>({ k: 'kill' }))
  if (withCommands) {
    base.push(
      fc.record({ tab, cmd: fc.integer({ min: 0, max: TAB_COMMANDS.length - 1 }) }).map((r): Command => ({ k: 'send', ...r })),
      fc.constant<Command>({ k: 'exec' }), fc.constant<Command>({ k: 'answer' }), fc.constant<Command>({ k: 'die' }),
    )
  }
  return fc.array(fc.oneof(...base), { maxLength: 120 })
}

interface SimTab {
  id: string
  receiver: Receiver
  inbox: Array<DownBatch>
  outbox: Array<UpMessage>
  frozen: boolean
  /** seqs of state events applied, per generation, to check order and uniqueness. */
  applied: Array<number>
  effects: Array<number>
  lastSeq: number
  lastGeneration: string | null
}

const run = (tabCount: number, script: ReadonlyArray<Command>, logLimit: number) => {
  let generationNo = 1
  let tasks: Array<() => void> = []
  const makeWorker = (initial: Snapshot): Fanout =>
    makeFanout(initial, { generation: `g${generationNo}`, logLimit, window: 2, effectLimit: 10_000, schedule: (f) => tasks.push(f) })
  let worker = makeWorker(initialShared)
  let persisted: { generation: string | null; state: Snapshot } = { generation: null, state: initialShared }
  let recover = makeRecovery(persisted)
  let effectNo = 0
  const violations: Array<string> = []
  // issue 21: the commands tabs sent, the current worker's queue, the link that died unnoticed, the server
  const sent: Array<SentCommand> = []
  let atWorker: Array<AtWorker> = []
  /** commands that went out on a link whose worker died: settled by the replay rule when the tabs notice. */
  let onDeadLink: Array<SentCommand> | null = null
  const executions = new Map<number, number>()
  /** the server's idempotency store (issue 40): a keyed write's outcome by key, applied once whatever arrives. */
  const byKey = new Map<string, unknown>()
  /** the server does a command: a keyed write it already applied is answered with the stored outcome. */
  const serve = (c: SentCommand): unknown => {
    const key = keyOf(c)
    if (key !== null && byKey.has(key)) return byKey.get(key)
    executions.set(c.id, (executions.get(c.id) ?? 0) + 1)
    if (isRead(c.prop, c.args)) return { ok: true, data: changesDone }
    changesDone += 1
    const result = { ok: true, data: null }
    if (key !== null) byKey.set(key, result)
    return result
  }
  let changesDone = 0
  let changesAnsweredOk = 0
  const answer = (c: SentCommand, value: unknown) => {
    c.answers.push(value)
    if (!isRead(c.prop, c.args) && (value as { ok?: boolean }).ok === true) changesAnsweredOk += 1
  }
  /** The tabs notice the death: every command on the dead link is sent again or answered (src/core/replay.ts). */
  const settleDeadLink = () => {
    const dead = [...(onDeadLink ?? []), ...atWorker.map((w) => w.command)]
    onDeadLink = null
    atWorker = []
    for (const c of dead) {
      const next = afterDeath(c.prop, c.args, catalogueRule, c.replays, false)
      if (next.replay) {
        c.replays += 1
        atWorker.push({ command: c, done: false })
      } else {
        answer(c, next.answer)
      }
    }
  }

  const newTab = (i: number, reloadNo: number): SimTab => {
    const t: SimTab = {
      id: `t${i}.${reloadNo}`, inbox: [], outbox: [], frozen: false, applied: [], effects: [], lastSeq: 0, lastGeneration: null,
      receiver: undefined as unknown as Receiver,
    }
    t.receiver = createReceiver({
      onState: (state, replaced) => {
        if (!replaced && t.lastGeneration === t.receiver.generation() && state.seq <= t.lastSeq) violations.push(`${t.id}: seq went back`)
        t.lastSeq = state.seq
        t.lastGeneration = t.receiver.generation()
      },
      onEffect: (e) => {
        const [no, after, generation] = (e as { text: string }).text.split(':')
        // an effect never runs before the state it was emitted after
        if (generation === t.receiver.generation() && t.receiver.state().seq < Number(after)) violations.push(`${t.id}: effect ${no} early`)
        t.effects.push(Number(no))
      },
      reply: (m) => t.outbox.push(m),
    })
    return t
  }
  const attach = (t: SimTab) => {
    const holds = { generation: t.receiver.generation(), state: t.receiver.generation() === null ? null : t.receiver.state() }
    for (const event of recover(holds, worker.state())) worker.publish(event)
    worker.attach(t.id, { post: (b) => t.inbox.push(structuredClone(b)), close: () => {} }, { generation: holds.generation, seq: holds.state?.seq ?? 0 })
  }
  const reloads = new Array<number>(tabCount).fill(0)
  const tabs = Array.from({ length: tabCount }, (_, i) => newTab(i, 0))
  tabs.forEach(attach)

  const process = (t: SimTab, n: number) => {
    for (let i = 0; i < n && !t.frozen && t.inbox.length > 0; i++) {
      const batch = t.inbox.shift()!
      const before = t.receiver.state()
      t.receiver.receive(batch)
      const after = t.receiver.state()
      // the receiver's state must equal folding the batch's state events over the previous state (or the snapshot)
      let expected = batch.snapshot ?? before
      for (const d of batch.items) if (d.seq !== null && d.seq > expected.seq) expected = reduce(expected, d.event as StateEvent, d.seq)
      if (batch.snapshot !== null || batch.generation === t.receiver.generation()) {
        if (JSON.stringify(expected) !== JSON.stringify(after)) violations.push(`${t.id}: batch ${batch.n} applied wrongly`)
      }
    }
  }
  const ack = (t: SimTab, n: number) => {
    for (let i = 0; i < n && t.outbox.length > 0; i++) worker.receive(t.id, t.outbox.shift()!)
  }
  const runTasks = () => {
    const now = tasks
    tasks = []
    now.forEach((f) => f())
  }

  for (const c of script) {
    switch (c.k) {
      case 'publish': c.events.forEach((e) => worker.publish(e)); break
      case 'emit': {
        const event: EffectEvent = { _tag: 'ShowToast', text: `${effectNo++}:${worker.state().seq}:g${generationNo}` }
        worker.emit(event, c.to === 'all' ? 'all' : tabs[c.to].id)
        break
      }
      case 'flush': runTasks(); break
      case 'process': process(tabs[c.tab], c.count); break
      case 'ack': ack(tabs[c.tab], c.count); break
      case 'freeze': tabs[c.tab].frozen = true; break
      case 'thaw': tabs[c.tab].frozen = false; break
      case 'reload': {
        worker.detach(tabs[c.tab].id)
        tabs[c.tab] = newTab(c.tab, ++reloads[c.tab])
        attach(tabs[c.tab])
        break
      }
      case 'persist': persisted = { generation: `g${generationNo}`, state: worker.state() }; break
      case 'send': {
        const { prop, args: given } = TAB_COMMANDS[c.cmd]!
        // what connect.ts does: every call gets its key before it first leaves
        const args = prop === 'call' ? withCallKey(given, `key${sent.length}xxxxxxxxxxxx`) : given
        const command: SentCommand = { id: sent.length, tab: tabs[c.tab].id, prop, args, changesAnsweredBefore: changesAnsweredOk, replays: 0, answers: [] }
        sent.push(command)
        if (onDeadLink !== null) onDeadLink.push(command)
        else atWorker.push({ command, done: false })
        break
      }
      case 'exec': {
        // the worker sends its oldest queued command; the server does it
        const next = onDeadLink === null ? atWorker.find((w) => !w.done) : undefined
        if (next === undefined) break
        next.done = true
        next.result = serve(next.command)
        break
      }
      case 'answer': {
        const i = onDeadLink === null ? atWorker.findIndex((w) => w.done) : -1
        if (i < 0) break
        const [w] = atWorker.splice(i, 1)
        answer(w!.command, w!.result)
        break
      }
      case 'die': {
        // the worker is gone, no tab knows yet: what it had queued or done is lost with it, what tabs send goes nowhere
        if (onDeadLink === null) onDeadLink = []
        break
      }
      case 'kill': {
        // the worker and its ports are gone: messages in flight are lost; tabs keep the state they applied
        settleDeadLink()
        generationNo += 1
        tasks = []
        recover = makeRecovery(persisted)
        worker = makeWorker(persisted.state)
        for (const t of tabs) {
          t.inbox = []
          t.outbox = []
          attach(t)
        }
        break
      }
    }
  }
  // drain: the tabs notice a death nobody noticed yet; the worker and the server do every command left
  if (onDeadLink !== null) settleDeadLink()
  while (atWorker.length > 0) {
    const w = atWorker.shift()!
    answer(w.command, w.done ? w.result : serve(w.command))
  }
  // drain: every tab thaws; flush, process and ack until nothing moves
  tabs.forEach((t) => { t.frozen = false })
  for (let round = 0; round < 1000; round++) {
    runTasks()
    let moved = false
    for (const t of tabs) {
      if (t.inbox.length > 0 || t.outbox.length > 0) moved = true
      process(t, Infinity)
      ack(t, Infinity)
    }
    if (!moved && tasks.length === 0) return { worker, tabs, violations, persisted, rounds: round, sent, executions }
  }
  violations.push('did not quiesce: a stall')
  return { worker, tabs, violations, persisted, rounds: -1, sent, executions }
}

const checkConverged = (r: ReturnType<typeof run>) => {
  expect(r.violations).toEqual([])
  for (const t of r.tabs) expect(t.receiver.state()).toEqual(r.worker.state())
  for (const t of r.tabs) {
    // effects arrive at most once and in emission order
    expect(new Set(t.effects).size).toBe(t.effects.length)
    expect([...t.effects].sort((a, b) => a - b)).toEqual(t.effects)
  }
}

/**
 * Issue 21, the replay rule: every command is answered exactly once; a read is answered with data that includes every
 * change confirmed before it was sent (as if nothing had happened), or, after more than MAX_REPLAYS deaths in a row,
 * "interrupted", never "outcome unknown"; a change that must not be repeated reaches the server at most once, and is
 * confirmed only if it did, else answered "outcome unknown" (silent for a silent endpoint). Issue 40: a keyed write is
 * sent again with its key and applied at most once; it is answered "outcome unknown" only after MAX_REPLAYS deaths.
 */
const checkCommands = (r: ReturnType<typeof run>) => {
  for (const c of r.sent) {
    const label = `command ${c.id} (${c.prop} ${String(c.args[0])})`
    expect(c.answers, label).toHaveLength(1)
    const answer = c.answers[0] as { ok: boolean; data?: unknown }
    const executed = r.executions.get(c.id) ?? 0
    // what the contract declares, read directly (not through the rule under test)
    const repeatable = c.prop === 'call' ? catalogue[c.args[0] as EndpointName].repeatable : COMMAND_ON_DEATH[c.prop as keyof typeof COMMAND_ON_DEATH] === 'replay'
    if (isRead(c.prop, c.args)) {
      if (answer.ok) expect(answer.data as number, label).toBeGreaterThanOrEqual(c.changesAnsweredBefore)
      else {
        expect(answer, label).toEqual(interrupted)
        expect(c.replays, label).toBe(MAX_REPLAYS)
      }
    } else if (keyOf(c) !== null) {
      // issue 40, a keyed write: sent again after deaths, applied at most once, confirmed only if applied
      expect(executed, label).toBeLessThanOrEqual(1)
      if (answer.ok) expect(executed, label).toBe(1)
      else {
        expect(answer, label).toEqual(outcomeUnknown(c.args[0] === 'stat'))
        expect(c.replays, label).toBe(MAX_REPLAYS)
      }
    } else if (repeatable) {
      // repeatable: ends in the same state however often it was done
      if (answer.ok) expect(executed, label).toBeGreaterThanOrEqual(1)
      else expect(answer, label).toEqual(interrupted)
    } else {
      expect(executed, label).toBeLessThanOrEqual(1)
      expect(c.replays, label).toBe(0)
      if (answer.ok) expect(executed, label).toBe(1)
      else expect(answer, label).toEqual(outcomeUnknown(c.args[0] === 'stat'))
    }
  }
}

describe('delivery model', () => {
  it('every tab converges to exactly the worker state, for any interleaving (1-4 tabs, no deaths)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 3, max: 50 }), fc.integer({ min: 1, max: 4 }).chain((n) => commands(n, false, stateEvent).map((s) => [n, s] as const)),
        (_, logLimit, [n, script]) => checkConverged(run(n, script, logLimit))),
      { numRuns: 400 },
    )
  })

  it('effects sent to a tab that keeps taking batches arrive exactly once, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('p' as const), fc.constant('e' as const), fc.constant('f' as const), fc.constant('x' as const)), { maxLength: 200 }), (steps) => {
        const script: Array<Command> = steps.map((s): Command =>
          s === 'p' ? { k: 'publish', events: [{ _tag: 'CounterIncremented', kind: 'coupon' }] }
            : s === 'e' ? { k: 'emit', to: 'all' }
              : s === 'f' ? { k: 'flush' } : { k: 'process', tab: 0, count: 1 })
        const r = run(2, script, 5)
        checkConverged(r)
        const emitted = steps.filter((s) => s === 'e').length
        for (const t of r.tabs) expect(t.effects).toEqual(Array.from({ length: emitted }, (_, i) => i))
      }),
      { numRuns: 300 },
    )
  })

  it('after worker deaths every tab converges, and no pushed increment any tab had applied is lost', () => {
    const counterEvents = fc.constantFrom<StateEvent>({ _tag: 'CounterIncremented', kind: 'coupon' }, { _tag: 'CounterIncremented', kind: 'activationCode' })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }).chain((n) => commands(n, true, counterEvents).map((s) => [n, s] as const)), ([n, script]) => {
        // a logged-in session from the start, persisted, so recovery applies to the same account
        const login: Command = { k: 'publish', events: [{ _tag: 'SessionChanged', user: user('a'), phone: '13800138000' }] }
        const full: Array<Command> = [login, { k: 'persist' }, ...script]
        const r = run(n, full, 20)
        checkConverged(r)
        // the counters are at least what was published after the last death, plus what was persisted or held by a tab
        const published = full.flatMap((c) => (c.k === 'publish' ? c.events : [])).filter((e) => e._tag === 'CounterIncremented').length
        const my = r.worker.state().counters.my
        expect(my).toBeLessThanOrEqual(published)
        expect(r.worker.state().counters.coupon + r.worker.state().counters.activationCode).toBe(my)
      }),
      { numRuns: 300 },
    )
  })

  it('a worker death right after tabs applied a burst loses none of it (recovered from the tabs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 300 }), (n, before, after) => {
        const burst = (k: number): Command => ({ k: 'publish', events: Array.from({ length: k }, () => ({ _tag: 'CounterIncremented', kind: 'coupon' }) as StateEvent) })
        const drain: Array<Command> = [{ k: 'flush' }, ...Array.from({ length: n }, (_, tab): Command => ({ k: 'process', tab, count: 50 }))]
        const script: Array<Command> = [
          { k: 'publish', events: [{ _tag: 'SessionChanged', user: user('a'), phone: '13800138000' }] }, { k: 'persist' },
          burst(before), ...drain, { k: 'kill' }, burst(after),
        ]
        const r = run(n, script, 20)
        checkConverged(r)
        expect(r.worker.state().counters.coupon).toBe(before + after)
      }),
      { numRuns: 200 },
    )
  })

  it('worker deaths with commands in flight: the replay rule settles every command, once, and never repeats a change', () => {
    const counterEvents = fc.constantFrom<StateEvent>({ _tag: 'CounterIncremented', kind: 'coupon' }, { _tag: 'CounterIncremented', kind: 'activationCode' })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }).chain((n) => commands(n, true, counterEvents, true).map((s) => [n, s] as const)), ([n, script]) => {
        const login: Command = { k: 'publish', events: [{ _tag: 'SessionChanged', user: user('a'), phone: '13800138000' }] }
        const r = run(n, [login, { k: 'persist' }, ...script], 20)
        checkConverged(r)
        checkCommands(r)
      }),
      { numRuns: 500 },
    )
  })

  // Shrunk counterexamples fast-check found while the model was written, each against a rule that broke one half of
  // it (every command replayed; nothing replayed): kept as they were printed.
  it('issue 40: a keyed change in flight when the worker dies is sent again with its key and applied once ([send rebootDevice, die])', () => {
    const r = run(2, [{ k: 'send', tab: 0, cmd: 3 }, { k: 'die' }], 20)
    checkConverged(r)
    checkCommands(r)
    expect(r.executions.get(0) ?? 0).toBe(1)
    expect(r.sent[0]!.replays).toBe(1)
    expect(r.sent[0]!.answers).toEqual([{ ok: true, data: null }])
  })

  it('issue 40: an order the server applied whose answer died with the worker is answered with its outcome, applied once ([send orderCreate, exec, die])', () => {
    const r = run(1, [{ k: 'send', tab: 0, cmd: 4 }, { k: 'exec' }, { k: 'die' }, { k: 'exec' }], 20)
    checkCommands(r)
    expect(r.executions.get(0)).toBe(1)
    expect(r.sent[0]!.answers).toEqual([{ ok: true, data: null }])
  })

  it('a non-keyed change in flight when the worker dies is not sent again ([send loginWithCode, die])', () => {
    const r = run(2, [{ k: 'send', tab: 0, cmd: 7 }, { k: 'die' }], 20)
    checkConverged(r)
    checkCommands(r)
    expect(r.executions.get(0) ?? 0).toBe(0)
    expect(r.sent[0]!.answers).toEqual([outcomeUnknown(false)])
  })

  it('regression: a read sent after the death, before any tab noticed, is answered by the next worker ([die, send noticeAll])', () => {
    const r = run(1, [{ k: 'die' }, { k: 'send', tab: 0, cmd: 0 }], 20)
    checkConverged(r)
    checkCommands(r)
    expect(r.sent[0]!.answers).toEqual([{ ok: true, data: 0 }])
    expect(r.sent[0]!.replays).toBe(1)
  })
})
