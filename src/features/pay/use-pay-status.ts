// Polls an order's pay status every PAY_STATUS_POLL_MS while `active`, and reports the latest value.
import { useEffect, useState } from 'react'
import type { PayStatus } from '../../../worker/protocol/pay.ts'
import { PAY_STATUS_POLL_MS } from './order-rules.ts'
import type { CoreCall } from '../../core/use-call.ts'

/** `round` restarts polling (a refresh button) after it stopped on a final status or an error. */
export const usePayStatus = (call: CoreCall, myOrderNum: string, active: boolean, round = 0): PayStatus | null => {
  const [status, setStatus] = useState<PayStatus | null>(null)
  useEffect(() => {
    if (!active || !myOrderNum) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const tick = async () => {
      const r = await call('getPayStatus', { myOrderNum })
      if (!live) return
      if (r.ok && r.data !== false) setStatus(r.data)
      if (!r.ok || r.data === 0 || r.data === 3) timer = setTimeout(() => void tick(), PAY_STATUS_POLL_MS)
    }
    void tick()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [call, myOrderNum, active, round])
  return status
}

/** Ticks once a second: the server-time countdown to `closeTime` in ms (never below 0). */
export const useMsLeft = (closeTime: number | null, offset: number): number => {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (closeTime === null) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [closeTime])
  return closeTime === null ? 0 : Math.max(0, closeTime - (now + offset))
}
