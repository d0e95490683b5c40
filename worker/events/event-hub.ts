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
  readonly publish: (event: StateEvent) => Effect.Effect<number>
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

      const publish = (event: StateEvent) =>
        Effect.gen(function* () {
          const seq = snap.seq + 1
          snap = applyStateEvent(snap, event, seq)
          const entry = { seq, event }
          ring.push(entry)
          if (ring.length > eventLogLimit) ring = ring.slice(-eventLogLimit)
          tabs.send('all', entry)
          yield* storage.appendLog([entry], eventLogLimit)
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
