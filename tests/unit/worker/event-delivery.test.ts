import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import { EventHub, runCore, settle, TabRegistry } from './harness.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { PushRules } from '../../../worker/push/push-rules.ts'

const announce = { _tag: 'AnnouncementFlagChanged', active: true } as const

describe('event delivery', () => {
  it('numbers state events consecutively and delivers them to every tab in order, batched', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const b = yield* h.addTab('b')
      const hub = yield* EventHub
      for (let i = 0; i < 5; i++) yield* hub.publish(announce)
      yield* settle
      expect(a.received.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5])
      expect(b.received).toEqual(a.received)
      expect(a.raw).toHaveLength(1)
    })))

  it('keeps a bounded log in storage and answers a lagging tab from it, or with a snapshot when too far behind', () =>
    runCore({ config: { eventLogLimit: 3 } }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      for (let i = 0; i < 5; i++) yield* hub.publish(announce)
      yield* settle // the log write of one tick is coalesced and runs after it
      expect((yield* (yield* Storage).readLog()).map((e) => e.seq)).toEqual([3, 4, 5])
      const near = hub.since(3)
      expect(near.kind === 'events' ? near.batch.map((d) => d.seq) : null).toEqual([4, 5])
      const far = hub.since(1)
      expect(far.kind === 'snapshot' ? far.snapshot.seq : null).toBe(5)
    })))

  it('continues the seq after a restart from the persisted log and paints the stored session and list', () =>
    runCore({
      storage: { isUpdate: '1', token: 't', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138',
        deviceListCache: { list: [], fetchedAt: 5 } },
      log: [{ seq: 40, event: announce }, { seq: 41, event: announce }],
    }, (h) => Effect.gen(function* () {
      // hidden, so the push socket stays closed and publishes nothing.
      const a = yield* h.addTab('a', { visible: false })
      const hub = yield* EventHub
      expect(hub.snapshot()).toMatchObject({ seq: 41, session: { loggedIn: true, user: { username: 'demo' } }, devices: { fetchedAt: 5 } })
      yield* hub.publish(announce)
      yield* settle
      expect(a.received.map((d) => d.seq)).toEqual([42])
    })))

  it('drops a frozen tab that overflows its queue and tells it to resync, without stalling the others', () =>
    runCore({ config: { tabQueueLimit: 4, tabInflightLimit: 1 } }, (h) => Effect.gen(function* () {
      const frozen = yield* h.addTab('frozen')
      const live = yield* h.addTab('live')
      frozen.frozen = true
      const hub = yield* EventHub
      for (let i = 0; i < 10; i++) {
        yield* hub.publish(announce)
        yield* settle
      }
      expect(live.received.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      expect(frozen.raw.at(-1)).toEqual({ resyncNeeded: true })
      const beforeResync = frozen.received.length
      ;(yield* TabRegistry).markResynced('frozen')
      frozen.frozen = false
      yield* hub.publish(announce)
      yield* settle
      expect(frozen.received.length).toBe(beforeResync + 1)
      expect(frozen.received.at(-1)?.seq).toBe(11)
    })))

  it('a released tab receives nothing more', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      h.gone('a')
      yield* (yield* EventHub).publish(announce)
      yield* settle
      expect(a.received).toEqual([])
      expect((yield* TabRegistry).list()).toEqual([])
    })))

  it('many concurrent coupon pushes lose no increment: every frame raises the counters by one', () =>
    runCore({ storage: { isUpdate: '1' } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const rules = yield* PushRules
      yield* Effect.all(Array.from({ length: 200 }, (_, i) =>
        rules.handle({ type: i % 2 === 0 ? 'sendCouponMsg' : 'sendActivationCode', data: {} })), { concurrency: 'unbounded' })
      yield* settle
      const hub = yield* EventHub
      expect(hub.snapshot().cardCoupon).toEqual({ my: 200, coupon: 100, activationCode: 100 })
      expect(yield* (yield* Storage).get('cardCouponPush')).toEqual({ my: 200, coupon: 100, activationCode: 100 })
      const counts = a.received.filter((d) => d.event._tag === 'CardCouponChanged')
        .map((d) => (d.event as { counters: { my: number } }).counters.my)
      expect(counts).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
    })))
})
