// Typed calls through the core for screens and hooks: payload and result types come from the endpoint catalogue.
import { useCallback } from 'react'
import type { CallResult } from '../../worker/protocol/commands.ts'
import type { Catalogue, EndpointName } from '../../worker/protocol/catalogue.ts'
import type { RequestOf, ResponseOf } from '../../worker/protocol/endpoint.ts'
import { useCore } from '../core-context.tsx'

export type CoreCall = <N extends EndpointName>(name: N, payload: RequestOf<Catalogue[N]>) => Promise<CallResult<ResponseOf<Catalogue[N]>>>

export const useCall = (): CoreCall => {
  const { api } = useCore()
  return useCallback((async (name, payload) => (await api.call(name, payload)) as CallResult<never>) as CoreCall, [api])
}
