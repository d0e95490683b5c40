// Typed calls of the device endpoints through the core: payload and result types come from the catalogue.
import { useCallback } from 'react'
import type { CallResult } from '../../../worker/protocol/commands.ts'
import type { Catalogue, EndpointName } from '../../../worker/protocol/catalogue.ts'
import type { RequestOf, ResponseOf } from '../../../worker/protocol/endpoint.ts'
import { useCore } from '../../core-context.tsx'

export type DeviceCall = <N extends EndpointName>(name: N, payload: RequestOf<Catalogue[N]>) => Promise<CallResult<ResponseOf<Catalogue[N]>>>

export const useDeviceCall = (): DeviceCall => {
  const { api } = useCore()
  return useCallback(
    (async (name, payload) => (await api.call(name, payload)) as CallResult<never>) as DeviceCall,
    [api],
  )
}
