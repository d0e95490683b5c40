// The single writer of events: state events get the next seq, fold into the snapshot, go to the bounded log
// (memory ring + IndexedDB) and to every tab; effect events go to one tab or all, unlogged.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import type { Resync, Snapshot } from '../protocol/commands.ts'
import type { EffectEvent, EventBatch, StateEvent } from '../protocol/events.ts'
import { Storage, type LoggedEvent } from '../storage/storage.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { applyStateEvent } from './snapshot.ts'
import { hydrateSnapshot } from './hydrate.ts'
import { applyFirstLaunchRule } from '../storage/first-launch.ts'

export interface EventHubShape {
  /**
   * Appends a state event: folded into the snapshot and queued to every tab synchronously; the log write is
   * coalesced into one IndexedDB transaction per tick and not waited for. Given a function, the event
   * is computed from the current snapshot at that same synchronous moment (read-modify-publish with no lost update).
   */
  readonly publish: (event: StateEvent | ((snapshot: Snapshot) => StateEvent)) => Effect.Effect<number>
  /** delivers a transient event to one tab (by tabId) or to every tab. */
  readonly emit: (event: EffectEvent, to: string | 'all') => void
  readonly snapshot: () => Snapshot
  /** what a tab that applied up to `sinceSeq` needs: the missing events if the log still has them, else a snapshot. */
  readonly since: (sinceSeq: number) => Resync
}

export class EventHub extends Context.Service<EventHub, EventHubShape>()('cloud-phone/EventHub') {
  static readonly layer = Layer.effect(
    EventHub,
    Effect.gen(function* () {
      const storage = yield* Storage
      const tabs = yield* TabRegistry
      const { eventLogLimit } = yield* CoreConfig
      // the snapshot is hydrated from storage, so the first-launch clearing must come before it.
      yield* applyFirstLaunchRule(storage)
      let ring: Array<LoggedEvent> = [...(yield* storage.readLog())].sort((a, b) => a.seq - b.seq)
      let snap = yield* hydrateSnapshot(storage, ring.length === 0 ? 0 : ring[ring.length - 1].seq)

      // Entries published in the same tick share one log write: a burst of pushes is not a burst of transactions.
      let pending: Array<LoggedEvent> = []
      let flushing: Promise<void> | null = null
      const flushLog = (): Promise<void> => {
        if (flushing === null) {
          flushing = Promise.resolve().then(() => {
            const batch = pending
            pending = []
            flushing = null
            return Effect.runPromise(storage.appendLog(batch, eventLogLimit))
          })
        }
        return flushing
      }

      const publish = (eventOrFn: StateEvent | ((snapshot: Snapshot) => StateEvent)) =>
        Effect.sync(() => {
          const event = typeof eventOrFn === 'function' ? eventOrFn(snap) : eventOrFn
          const seq = snap.seq + 1
          snap = applyStateEvent(snap, event, seq)
          const entry = { seq, event }
          ring.push(entry)
          if (ring.length > eventLogLimit) ring = ring.slice(-eventLogLimit)
          tabs.send('all', entry)
          pending.push(entry)
          void flushLog()
          return seq
        })

      const since = (sinceSeq: number): Resync => {
        const first = ring.length === 0 ? snap.seq + 1 : ring[0].seq
        if (sinceSeq >= snap.seq) return { kind: 'events', batch: [] }
        if (sinceSeq + 1 < first || sinceSeq < 0) return { kind: 'snapshot', snapshot: snap }
        const batch: EventBatch = ring.filter((e) => e.seq > sinceSeq)
        return { kind: 'events', batch }
      }

      return {
        publish,
        emit: (event, to) => tabs.send(to, { seq: null, event }),
        snapshot: () => snap,
        since,
      }
    }),
  )
}
