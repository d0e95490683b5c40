// Typed calls of the pay endpoints through the core: payload and result types come from the catalogue.
import { useCallback } from 'react'
import type { CallResult } from '../../../worker/protocol/commands.ts'
import type { Catalogue, EndpointName } from '../../../worker/protocol/catalogue.ts'
import type { RequestOf, ResponseOf } from '../../../worker/protocol/endpoint.ts'
import { useCore } from '../../core-context.tsx'

export type PayCall = <N extends EndpointName>(name: N, payload: RequestOf<Catalogue[N]>) => Promise<CallResult<ResponseOf<Catalogue[N]>>>

export const usePayCall = (): PayCall => {
  const { api } = useCore()
  return useCallback((async (name, payload) => (await api.call(name, payload)) as CallResult<never>) as PayCall, [api])
}

/** The server's clock minus ours (ms), so countdowns to closeTime run on server time; 0 until known. */
export const serverOffset = async (call: PayCall): Promise<number> => {
  const before = Date.now()
  const r = await call('getSystemTime', {})
  if (!r.ok || typeof r.data !== 'number') return 0
  return r.data - Math.round((before + Date.now()) / 2)
}
