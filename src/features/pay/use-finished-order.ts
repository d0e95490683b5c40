// A result screen's order: its details from the server, and the device list refreshed (a payment changes it).
import { useEffect, useState } from 'react'
import type { Order } from '../../../worker/protocol/pay.ts'
import { useCore } from '../../core-context.tsx'
import { useCall } from '../../core/use-call.ts'

export const useFinishedOrder = (myOrderNum: string): Order | null => {
  const { api } = useCore()
  const call = useCall()
  const [order, setOrder] = useState<Order | null>(null)
  useEffect(() => {
    void call('orderDetail', { myOrderNum }).then((r) => r.ok && setOrder(r.data))
    void api.refreshDevices()
  }, [call, api, myOrderNum])
  return order
}
