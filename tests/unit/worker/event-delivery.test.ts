import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import { EventHub, runCore, settle, TabRegistry } from './harness.ts'
import { ExitAction } from '../../../worker/session/exit-action.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { PushRules } from '../../../worker/push/push-rules.ts'
import { initialShared } from '../../../worker/protocol/projection/index.ts'
import { readPersisted } from '../../../worker/api/boundary.ts'

const announce = { _tag: 'AnnouncementFlagChanged', active: true } as const

/** the seq of every snapshot the writer commits. */
const recordCommits = (storage: Storage['Service']): Array<number> => {
  const commits: Array<number> = []
  const commit = storage.commit
  ;(storage as { commit: typeof commit }).commit = (c) => {
    commits.push(c.persisted.state.seq)
    return commit(c)
  }
  return commits
}

/** polls a condition on the platform's timers (the writer's), failing after 5 s. */
const waitFor = (condition: () => boolean) => Effect.promise(async () => {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > 5_000) throw new Error('condition not met within 5 s')
    await new Promise((r) => setTimeout(r, 5))
  }
})
const coupon = { _tag: 'CounterIncremented', kind: 'coupon' } as const

describe('event delivery', () => {
  it('a new tab starts from a snapshot, then gets state events consecutively numbered, in order, batched', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const b = yield* h.addTab('b')
      yield* settle
      expect(a.snapshots.map((s) => s.seq)).toEqual([0])
      const hub = yield* EventHub
      for (let i = 0; i < 5; i++) hub.publish(coupon)
      yield* settle
      expect(a.received.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5])
      expect(b.received).toEqual(a.received)
      // one snapshot batch, then the five events of one tick in one batch
      expect(a.raw).toHaveLength(2)
      expect(a.receiver.state()).toEqual(hub.snapshot())
    })))

  it('persists the projection of a burst in one write once it is quiet, with the cardCouponPush key', () =>
    runCore({ config: { persistQuietMs: 20 } }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      const commits = recordCommits(yield* Storage)
      for (let i = 0; i < 5; i++) hub.publish(coupon)
      expect(commits).toEqual([])
      // the writer's timers are the platform's, not the test clock
      yield* waitFor(() => commits.length > 0)
      expect(commits).toEqual([5])
      expect(readPersisted(yield* (yield* Storage).readPersisted())?.state.counters.coupon).toBe(5)
      hub.publish(coupon)
      yield* hub.flushed
      expect(commits).toEqual([5, 6])
    })))

  it('under a steady stream of pushes writes at most once per maxDelay, and the last state once quiet', () =>
    runCore({ config: { persistQuietMs: 20, persistMaxDelayMs: 100 } }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      const commits = recordCommits(yield* Storage)
      const started = Date.now()
      // a push every 5 ms for 400 ms: never quiet for 20 ms
      while (Date.now() - started < 400) {
        hub.publish(coupon)
        yield* Effect.promise(() => new Promise((r) => setTimeout(r, 5)))
      }
      const last = hub.snapshot().seq
      const duringStream = commits.length
      // 400 ms at one write per 100 ms; a loaded machine's late timers only make it fewer
      expect(duringStream).toBeGreaterThanOrEqual(1)
      expect(duringStream).toBeLessThanOrEqual(5)
      yield* waitFor(() => commits.at(-1) === last)
      expect(commits.length).toBeLessThanOrEqual(duringStream + 1)
    })))

  it('writes what is pending at once when no tab is visible any more', () =>
    runCore({ config: { persistQuietMs: 60_000, persistMaxDelayMs: 60_000 } }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      const hub = yield* EventHub
      const commits = recordCommits(yield* Storage)
      hub.publish(coupon)
      yield* settle
      expect(commits).toEqual([])
      ;(yield* TabRegistry).setVisible('a', false)
      yield* waitFor(() => commits.length > 0)
      expect(commits).toEqual([hub.snapshot().seq])
    })))

  it('puts its generation and a new session on disk at once, so a worker killed before its next write can be recovered', () =>
    runCore({ config: { persistQuietMs: 60_000, persistMaxDelayMs: 60_000 } }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      const storage = yield* Storage
      yield* hub.flushed
      expect(readPersisted(yield* storage.readPersisted())?.generation).toBe(hub.generation)
      hub.publish({ _tag: 'SessionChanged', user: { username: 'demo', userType: 1, phone: '13800138000' }, phone: '13800138000' })
      hub.publish(coupon)
      const persisted = yield* Effect.promise(async () => {
        for (let i = 0; i < 500; i++) {
          // what the writer stored decodes with the contract's schema (else the next worker would not use it)
          const p = readPersisted(await Effect.runPromise(storage.readPersisted()))
          if (p?.state.session.loggedIn === true) return p
          await new Promise((r) => setTimeout(r, 5))
        }
        return null
      })
      expect(persisted?.state.session.user?.username).toBe('demo')
      expect(persisted?.generation).toBe(hub.generation)
    })))

  it('a restarted core starts from the persisted state, continues its seq and paints the stored session and list', () =>
    runCore({
      storage: { isUpdate: '1', token: 't', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138' },
      persisted: {
        generation: 'old',
        state: {
          ...initialShared, seq: 41, counters: { my: 3, coupon: 3, activationCode: 0 },
          session: { loggedIn: true, user: { username: 'demo', userType: 1, phone: '138' }, phone: '138', ended: null },
          devices: { list: [], fetchedAt: 5, loading: true, error: null },
        },
      },
    }, (h) => Effect.gen(function* () {
      // hidden, so the push socket stays closed and publishes nothing.
      const a = yield* h.addTab('a', { visible: false })
      yield* settle
      const hub = yield* EventHub
      expect(hub.snapshot()).toMatchObject({ seq: 41, session: { loggedIn: true, user: { username: 'demo' } }, devices: { fetchedAt: 5, loading: false } })
      hub.publish(coupon)
      yield* settle
      expect(a.received.map((d) => d.seq)).toEqual([42])
      expect(a.receiver.state().counters.coupon).toBe(4)
    })))

  it('a persisted state that does not decode (damaged, or of another shape) is not used: the core starts afresh', () =>
    runCore({
      storage: { isUpdate: '1', token: 't', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138' },
      persisted: {
        generation: 'old',
        // a device list that is not a list: folding onto it would break every tab that paints it
        state: { ...initialShared, seq: 41, devices: { list: 'oops', fetchedAt: 5, loading: false, error: null } },
      } as never,
    }, () => Effect.gen(function* () {
      const s = (yield* EventHub).snapshot()
      expect(s.seq).toBe(0)
      expect(s.devices.list).toEqual([])
      // the stored token still says who is logged in (hydrate.ts rebuilds the session from the stored user)
      expect(s.session).toMatchObject({ loggedIn: true, user: { username: 'demo' } })
    })))

  it('a persisted state written before the avatar slice existed decodes, with no avatar', () => {
    const { avatar: _, ...older } = initialShared
    expect(readPersisted({ generation: 'old', state: { ...older, seq: 3 } })).toEqual({ generation: 'old', state: { ...initialShared, seq: 3, avatar: null } })
    expect(readPersisted({ generation: 'old' })).toBeNull()
    expect(readPersisted(undefined)).toBeNull()
  })

  it('a persisted state of a session whose token is gone paints logged out, with none of the account', () =>
    runCore({
      storage: { isUpdate: '1' },
      persisted: {
        generation: 'old',
        state: { ...initialShared, seq: 9, systemName: '星云', counters: { my: 3, coupon: 3, activationCode: 0 },
          session: { loggedIn: true, user: { username: 'demo', userType: 1, phone: '138' }, phone: '138', ended: null } },
      },
    }, () => Effect.gen(function* () {
      const s = (yield* EventHub).snapshot()
      expect(s.session.loggedIn).toBe(false)
      expect(s.counters).toEqual(initialShared.counters)
      expect(s.systemName).toBe('星云')
    })))

  it('a frozen tab stalls nobody; when it thaws it jumps to a snapshot and is exact again', () =>
    runCore({ config: { eventLogLimit: 4, tabInflightLimit: 1 } }, (h) => Effect.gen(function* () {
      const frozen = yield* h.addTab('frozen')
      const live = yield* h.addTab('live')
      yield* settle
      frozen.frozen = true
      const hub = yield* EventHub
      for (let i = 0; i < 20; i++) {
        hub.publish(coupon)
        yield* settle
      }
      expect(live.received.map((d) => d.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(live.receiver.state()).toEqual(hub.snapshot())
      // it took one batch and holds no more than its window: nothing is queued per event for it
      expect(frozen.raw.length).toBeLessThanOrEqual(2)
      frozen.frozen = false
      frozen.receiver.receive(frozen.raw.at(-1)!)
      yield* settle
      expect(frozen.snapshots.at(-1)?.seq).toBe(20)
      expect(frozen.receiver.state()).toEqual(hub.snapshot())
    })))

  it('a released tab receives nothing more', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      yield* settle
      h.gone('a')
      ;(yield* EventHub).publish(announce)
      yield* settle
      expect(a.received).toEqual([])
      expect((yield* TabRegistry).list()).toEqual([])
    })))

  it('many concurrent coupon pushes lose no increment, in the state, the tabs and the stored cardCouponPush', () =>
    runCore({ storage: { isUpdate: '1', token: 't', dataInfo: { username: 'demo', userType: 1, phone: '138' } } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const rules = yield* PushRules
      for (let i = 0; i < 200; i++) rules.handle({ type: i % 2 === 0 ? 'sendCouponMsg' : 'sendActivationCode', data: {} })
      yield* settle
      const hub = yield* EventHub
      expect(hub.snapshot().counters).toEqual({ my: 200, coupon: 100, activationCode: 100 })
      expect(a.receiver.state().counters).toEqual({ my: 200, coupon: 100, activationCode: 100 })
      yield* hub.flushed
      expect(yield* (yield* Storage).get('cardCouponPush')).toEqual({ my: 200, coupon: 100, activationCode: 100 })
    })))

  it('a tab that reattaches to a new worker hands over increments the dead worker never persisted', () =>
    runCore({
      storage: { isUpdate: '1', token: 't', dataInfo: { username: 'demo', userType: 1, phone: '138' } },
      persisted: { generation: 'dead', state: { ...initialShared, seq: 10, counters: { my: 2, coupon: 2, activationCode: 0 },
        session: { loggedIn: true, user: { username: 'demo', userType: 1, phone: '138' }, phone: '138', ended: null } } },
    }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      const tabState = { ...hub.snapshot(), seq: 15, counters: { my: 7, coupon: 6, activationCode: 1 } }
      hub.attach('t', { onmessage: null, postMessage: () => {}, close: () => {} }, { generation: 'dead', state: tabState })
      // a second tab of the same dead worker, less far along, adds nothing
      hub.attach('u', { onmessage: null, postMessage: () => {}, close: () => {} }, { generation: 'dead', state: { ...tabState, seq: 13, counters: { my: 4, coupon: 4, activationCode: 0 } } })
      expect(hub.snapshot().counters).toEqual({ my: 7, coupon: 6, activationCode: 1 })
    })))

  it('a starting core stores the merchant sign every request carries (§3), and an exit keeps it', () =>
    runCore({}, () => Effect.gen(function* () {
      const storage = yield* Storage
      expect(yield* storage.get('merchantSign')).toBe('SPW')
      const exit = yield* ExitAction
      yield* exit.run({ redirect: false })
      yield* (yield* EventHub).flushed
      expect(yield* storage.get('merchantSign')).toBe('SPW')
    })))
})
