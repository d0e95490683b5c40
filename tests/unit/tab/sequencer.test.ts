import { describe, expect, it, vi } from 'vitest'
import { createSequencer } from '../../../src/core/sequencer.ts'
import type { Resync, Snapshot } from '../../../worker/protocol/commands.ts'
import type { Delivered, EventBatch } from '../../../worker/protocol/events.ts'

const flag = (seq: number): Delivered => ({ seq, event: { _tag: 'AnnouncementFlagChanged', active: seq % 2 === 0 } })
const toast = (text: string): Delivered => ({ seq: null, event: { _tag: 'ShowToast', text, delayMs: 0 } })
const snapshotAt = (seq: number) => ({ seq }) as unknown as Snapshot

const setup = (answer: (since: number) => Resync) => {
  const emitted: Array<Delivered> = []
  const snapshots: Array<number> = []
  const resync = vi.fn(async (since: number) => answer(since))
  const s = createSequencer({
    resync,
    emit: (batch: EventBatch) => emitted.push(...batch),
    applySnapshot: (snap) => snapshots.push(snap.seq),
  })
  const seqs = () => emitted.map((d) => d.seq)
  return { s, resync, emitted, snapshots, seqs }
}

describe('the tab applies the core log in order, never twice', () => {
  it('passes consecutive events and effect events through as they come', async () => {
    const t = setup(() => ({ kind: 'events', batch: [] }))
    t.s.fromSnapshot(snapshotAt(3))
    await t.s.handleBatch([flag(4), toast('a'), flag(5)])
    expect(t.seqs()).toEqual([4, null, 5])
    expect(t.resync).not.toHaveBeenCalled()
    expect(t.s.lastSeq()).toBe(5)
  })

  it('drops state events at or below the last applied seq (a replay after reattach)', async () => {
    const t = setup(() => ({ kind: 'events', batch: [] }))
    t.s.fromSnapshot(snapshotAt(5))
    await t.s.handleBatch([flag(4), flag(5), flag(6)])
    expect(t.seqs()).toEqual([6])
  })

  it('repairs a gap from the log before applying what follows it, in order', async () => {
    const t = setup((since) => ({ kind: 'events', batch: [flag(since + 1), flag(since + 2), flag(since + 3)] }))
    t.s.fromSnapshot(snapshotAt(1))
    await t.s.handleBatch([flag(2), flag(5), flag(6)])
    expect(t.resync).toHaveBeenCalledWith(2)
    expect(t.seqs()).toEqual([2, 3, 4, 5, 6])
  })

  it('takes a whole snapshot when the core no longer has the missing events', async () => {
    const t = setup(() => ({ kind: 'snapshot', snapshot: snapshotAt(40) }))
    t.s.fromSnapshot(snapshotAt(1))
    await t.s.handleBatch([flag(39), flag(41)])
    expect(t.snapshots).toEqual([1, 40])
    expect(t.seqs()).toEqual([41])
  })

  it('catches up from lastSeq when the core dropped the tab queue', async () => {
    const t = setup(() => ({ kind: 'events', batch: [flag(8), toast('late'), flag(9)] }))
    t.s.fromSnapshot(snapshotAt(7))
    await t.s.catchUp()
    expect(t.resync).toHaveBeenCalledWith(7)
    expect(t.seqs()).toEqual([8, null, 9])
    await t.s.handleBatch([flag(9), flag(10)])
    expect(t.seqs()).toEqual([8, null, 9, 10])
  })
})
