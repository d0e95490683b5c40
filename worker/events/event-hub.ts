// The single writer of events. A state event is folded by the one projection, delivered to every tab by the fanout
// (worker/delivery/fanout.ts) and the projection is persisted in the background (snapshot-writer.ts); an effect event goes to
// one tab or all, unlogged. Results of calls asked in a session that has since ended are dropped here (decisions.md).
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { makeFanout, type FanoutPort } from '../delivery/fanout.ts'
import { encodeBatch } from '../protocol/batch-codec.ts'
import type { EventLogExport, Snapshot, TabHolds, UpMessage } from '../protocol/commands.ts'
import type { EffectEvent, StateEvent } from '../protocol/events.ts'
import { SessionState } from '../session/session-state.ts'
import { applyFirstLaunchRule, storeMerchantSign } from '../storage/first-launch.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { Storage } from '../storage/storage.ts'
import { hydrateState } from './hydrate.ts'
import { makeSnapshotWriter } from './snapshot-writer.ts'
import { makeRecovery } from './recovery.ts'
import { redactExport } from './redact.ts'

export interface EventHubShape {
  /**
   * Appends a state event: folded, sent to every tab and logged. With `epoch`, the event is the result of work started
   * in that session and is dropped (null) if the session has ended or changed since.
   */
  readonly publish: (event: StateEvent, epoch?: number) => number | null
  /** delivers a transient event to one tab (by tabId) or to every tab. */
  readonly emit: (event: EffectEvent, to: string | 'all') => void
  readonly snapshot: () => Snapshot
  /** a tab's event port: it receives batches from where its state is, and its acks come back here. */
  readonly attach: (tabId: string, port: MessagePort | TestPort, holds: TabHolds) => void
  readonly detach: (tabId: string) => void
  /** the exit action, after publishing SessionEnded: clear the account's storage, and wait for it. */
  readonly clearAccount: () => Effect.Effect<void>
  /** resolves when everything published so far is in IndexedDB. */
  readonly flushed: Effect.Effect<void>
  readonly exportLog: () => EventLogExport
  readonly generation: string
}

/** What the hub needs of a port (a MessagePort in the browser, a fake in unit tests). */
export interface TestPort {
  postMessage(message: unknown): void
  onmessage: ((ev: { data: unknown }) => void) | null
  close(): void
}

export class EventHub extends Context.Service<EventHub, EventHubShape>()('cloud-phone/EventHub') {
  static readonly layer = Layer.effect(
    EventHub,
    Effect.gen(function* () {
      const storage = yield* Storage
      const session = yield* SessionState
      const tabs = yield* TabRegistry
      const config = yield* CoreConfig
      // the persisted state is read after the first-launch clearing
      yield* applyFirstLaunchRule(storage)
      yield* storeMerchantSign(storage)
      const { state: initial, persisted } = yield* hydrateState(storage)
      const generation = crypto.randomUUID()
      const writer = makeSnapshotWriter(storage, { generation, quietMs: config.persistQuietMs, maxDelayMs: config.persistMaxDelayMs })
      const recover = makeRecovery(persisted ?? { generation: null, state: initial })
      // this generation is on disk from the start, so if it dies before its next write its tabs' states can still be
      // measured against what it started from (recovery.ts needs the generations to match)
      writer.changed(initial)
      void writer.flushed()
      const fanout = makeFanout(initial, {
        generation, logLimit: config.eventLogLimit, window: config.tabInflightLimit, effectLimit: config.tabQueueLimit,
        schedule: (flush) => queueMicrotask(flush),
      })

      // a tab that closed (its Web Lock released) gets nothing more
      tabs.onRelease(fanout.detach)
      // with no tab in sight the browser may kill this worker (Android does in the background): write what is pending
      tabs.subscribe(() => {
        if (!tabs.anyVisible()) void writer.flushed()
      })

      const publish = (event: StateEvent, epoch?: number): number | null => {
        if (epoch !== undefined && session.current().epoch !== epoch) return null
        const seq = fanout.publish(event)
        writer.changed(fanout.state())
        // the account a persisted state belongs to is what recovery.ts measures a reattaching tab against: on disk at once
        if (event._tag === 'SessionChanged') void writer.flushed()
        return seq
      }

      const attach = (tabId: string, port: MessagePort | TestPort, holds: TabHolds) => {
        for (const event of recover(holds, fanout.state())) publish(event)
        const p = port as TestPort
        p.onmessage = (ev) => {
          const m = ev.data as UpMessage | null
          if (m !== null && typeof m === 'object') fanout.receive(tabId, m)
        }
        const fanoutPort: FanoutPort = { post: (batch) => p.postMessage(encodeBatch(batch)), close: () => p.close() }
        fanout.attach(tabId, fanoutPort, { generation: holds.generation, seq: holds.state?.seq ?? 0 })
      }

      const exportLog = (): EventLogExport => {
        const { base, events } = fanout.history()
        return redactExport({ kind: 'cloud-phone-event-log', version: 1, exportedAt: Date.now(), base, events, head: fanout.state() })
      }

      return {
        publish,
        emit: fanout.emit,
        snapshot: fanout.state,
        attach,
        detach: fanout.detach,
        clearAccount: () => Effect.promise(() => {
          writer.clearAccount()
          return writer.flushed()
        }),
        flushed: Effect.promise(() => writer.flushed()),
        exportLog,
        generation,
      }
    }),
  )
}
