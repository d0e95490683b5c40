// The server's clock as the pay screens need it (countdowns to an order's closeTime).
import type { CoreCall } from '../../core/use-call.ts'

/** The server's clock minus ours (ms), so countdowns to closeTime run on server time; 0 until known. */
export const serverOffset = async (call: CoreCall): Promise<number> => {
  const before = Date.now()
  const r = await call('getSystemTime', {})
  if (!r.ok || typeof r.data !== 'number') return 0
  return r.data - Math.round((before + Date.now()) / 2)
}
