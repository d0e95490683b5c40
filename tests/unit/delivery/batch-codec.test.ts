import { describe, expect, it } from 'vitest'
import { decodeBatch, encodeBatch, SMALL_BATCH_ITEMS } from '../../../worker/protocol/batch-codec.ts'
import type { DownBatch } from '../../../worker/protocol/commands.ts'
import { initialShared } from '../../../worker/protocol/projection/index.ts'

const batch = (items: number, snapshot = false): DownBatch => ({
  n: 3, ack: false, generation: 'g1', snapshot: snapshot ? initialShared : null,
  items: Array.from({ length: items }, (_, i) => ({ seq: i + 1, event: { _tag: 'CounterIncremented', kind: 'coupon' } as const })),
})

describe('batch codec', () => {
  it('posts a small batch as the object and a large one or a snapshot as text', () => {
    expect(typeof encodeBatch(batch(1))).toBe('object')
    expect(typeof encodeBatch(batch(SMALL_BATCH_ITEMS))).toBe('object')
    expect(typeof encodeBatch(batch(SMALL_BATCH_ITEMS + 1))).toBe('string')
    expect(typeof encodeBatch(batch(0, true))).toBe('string')
  })

  it('decodes both forms to the batch that was encoded', () => {
    for (const b of [batch(1), batch(SMALL_BATCH_ITEMS + 1), batch(2, true)]) {
      // a structured clone is what the tab receives of an object
      expect(decodeBatch(structuredClone(encodeBatch(b)))).toEqual(b)
    }
  })

  it('answers null for anything that is not a batch', () => {
    for (const junk of ['{', '"text"', 'null', '{"n":1}', 42, null, { items: [] }]) expect(decodeBatch(junk)).toBeNull()
  })
})
