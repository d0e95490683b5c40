// The tab's end of delivery: applies the core's numbered batches to this tab's copy of the shared state through the one
// projection, checks that state events follow without a gap, and acknowledges the batches the core asks it to. Pure (the port and
// the listeners are injected) so the delivery model test runs it against the worker's fanout.
import type { DownBatch, Snapshot, UpMessage } from '../../worker/protocol/commands.ts'
import type { EffectEvent, StateEvent } from '../../worker/protocol/events.ts'
import { initialShared, reduce } from '../../worker/protocol/projection/index.ts'

export interface ReceiverDeps {
  /** the new state after a batch (one call per batch, whatever its size). */
  readonly onState: (state: Snapshot, replaced: boolean) => void
  readonly onEffect: (event: EffectEvent) => void
  readonly reply: (message: UpMessage) => void
}

export interface Receiver {
  readonly receive: (batch: DownBatch) => void
  readonly state: () => Snapshot
  readonly generation: () => string | null
}

export const createReceiver = (deps: ReceiverDeps): Receiver => {
  let state: Snapshot = initialShared
  let generation: string | null = null
  let awaitingSnapshot = false

  const receive = (batch: DownBatch) => {
    let replaced = false
    if (batch.snapshot !== null) {
      state = batch.snapshot
      generation = batch.generation
      awaitingSnapshot = false
      replaced = true
    } else if (batch.generation !== generation && !awaitingSnapshot) {
      // events of a worker this state did not come from: only a snapshot of it can be applied
      awaitingSnapshot = true
      deps.reply({ resync: true })
    }
    const effects: Array<EffectEvent> = []
    let changed = replaced
    if (!awaitingSnapshot) {
      for (const d of batch.items) {
        if (d.seq === null) {
          effects.push(d.event as EffectEvent)
          continue
        }
        if (d.seq <= state.seq) continue
        if (d.seq !== state.seq + 1) {
          // cannot happen by construction; if it does, ask for a snapshot rather than show a wrong state
          awaitingSnapshot = true
          deps.reply({ resync: true })
          break
        }
        state = reduce(state, d.event as StateEvent, d.seq)
        changed = true
      }
    }
    if (changed) deps.onState(state, replaced)
    for (const e of effects) deps.onEffect(e)
    if (batch.ack) deps.reply({ ack: batch.n })
  }

  return {
    receive,
    state: () => state,
    generation: () => generation,
  }
}
