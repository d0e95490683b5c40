// A batch travels over the tab's event port as JSON text: the browser copies a string in one piece, where the
// structured clone of the same small object graph costs several times more on both ends, once per batch per tab.
import type { DownBatch } from './commands.ts'

export const encodeBatch = (batch: DownBatch): string => JSON.stringify(batch)

/** the batch in a port message, or null for anything else (a message of an older worker posting objects is taken as is). */
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
