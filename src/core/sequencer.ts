// Keeps a tab's view of the core's event log in order: drops state events it already has, and on a seq gap asks the
// core for what is missing (the log, or a whole snapshot) before going on. Effect events (seq null) pass through.
import type { Resync, Snapshot } from '../../worker/protocol/commands.ts'
import type { Delivered, EventBatch } from '../../worker/protocol/events.ts'

export interface SequencerDeps {
  /** what the core has after `sinceSeq`. */
  readonly resync: (sinceSeq: number) => Promise<Resync>
  readonly emit: (batch: EventBatch) => void
  readonly applySnapshot: (snapshot: Snapshot) => void
}

export interface Sequencer {
  readonly lastSeq: () => number
  /** a snapshot (attach, reattach) replaces everything before it. */
  readonly fromSnapshot: (snapshot: Snapshot) => void
  readonly handleBatch: (batch: EventBatch) => Promise<void>
  /** the core dropped this tab's queue: catch up from lastSeq. */
  readonly catchUp: () => Promise<void>
}

export const createSequencer = (deps: SequencerDeps): Sequencer => {
  let lastSeq = 0

  const emit = (batch: EventBatch) => {
    if (batch.length > 0) deps.emit(batch)
  }
  const fromSnapshot = (snapshot: Snapshot) => {
    lastSeq = snapshot.seq
    deps.applySnapshot(snapshot)
  }
  const catchUp = async () => {
    const r = await deps.resync(lastSeq)
    if (r.kind === 'snapshot') return fromSnapshot(r.snapshot)
    const fresh = r.batch.filter((d) => d.seq === null || d.seq > lastSeq)
    for (const d of fresh) if (d.seq !== null) lastSeq = d.seq
    emit(fresh)
  }

  const handleBatch = async (batch: EventBatch) => {
    let out: Array<Delivered> = []
    for (const d of batch) {
      if (d.seq !== null) {
        if (d.seq <= lastSeq) continue
        if (d.seq > lastSeq + 1) {
          emit(out)
          out = []
          await catchUp()
          if (d.seq <= lastSeq) continue
        }
        lastSeq = d.seq
      }
      out.push(d)
    }
    emit(out)
  }

  return { lastSeq: () => lastSeq, fromSnapshot, handleBatch, catchUp }
}
