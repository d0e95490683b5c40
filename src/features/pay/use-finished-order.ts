// A result screen's order: its details from the server (loading, failed with a retry, or there), and the device list
// refreshed (a payment changes it).
import { useCallback, useEffect } from 'react'
import type { Order } from '../../../worker/protocol/pay.ts'
import { useCore } from '../../core-context.tsx'
import { useCall } from '../../core/use-call.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { useLoaded, type Loaded } from '../../lib/use-loaded.ts'

export const useFinishedOrder = (myOrderNum: string): Loaded<Order> => {
  const { api } = useCore()
  const call = useCall()
  useEffect(() => {
    void api.refreshDevices()
  }, [api, myOrderNum])
  return useLoaded(useCallback(() => call('orderDetail', { myOrderNum }), [call, myOrderNum]), zhCN.pay.orderLoadFailed)
}
