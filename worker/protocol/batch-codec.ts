// How a batch travels over the tab's event port. A large batch (a snapshot, or the many events a flood gathers) goes
// as JSON text: the browser copies a string in one piece, where the structured clone of the same object graph costs
// several times more on both ends. A small one (a push or two at a time, the usual case) goes as the object: its clone
// costs about what the string's copy does, so the stringify in the worker and the parse in the tab were pure cost on
// the latency of every single push.
import type { DownBatch } from './commands.ts'

/** at most this many items and no snapshot: posted as the object itself. */
export const SMALL_BATCH_ITEMS = 4

export const encodeBatch = (batch: DownBatch): DownBatch | string =>
  batch.snapshot === null && batch.items.length <= SMALL_BATCH_ITEMS ? batch : JSON.stringify(batch)

/** the batch in a port message (text or object), or null for anything else. */
export const decodeBatch = (data: unknown): DownBatch | null => {
  let value: unknown = data
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data)
    } catch {
      return null
    }
  }
  return typeof value === 'object' && value !== null && 'n' in value && 'items' in value ? (value as DownBatch) : null
}
