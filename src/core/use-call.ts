// The core's `call` for a screen's hooks: exactly `useCore().api.call`, typed by the endpoint catalogue through the
// command contract (worker/protocol/commands.ts), so every answer keeps its failure type: `ok: false`, and data `false`
// when the server sent none (§7). The same function on every render.
import type { CallResult, CoreApi } from '../../worker/protocol/commands.ts'
import { useCore } from '../core-context.tsx'

export type CoreCall = CoreApi['call']

export const useCall = (): CoreCall => useCore().api.call

/**
 * An answer whose data the screen needs (an object it shows or acts on): data `false` (§7: the server sent none) is a
 * failure without a message, so the screen shows its own text; a list is read as `data || []` instead.
 */
export const withData = <A,>(r: CallResult<A | false>): CallResult<A> => {
  if (!r.ok) return r
  const data = r.data
  return data === false ? { ok: false, status: 0, msg: '', silent: false } : { ok: true, data }
}
