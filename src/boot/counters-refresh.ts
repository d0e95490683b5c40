// CountersRefresh signals (sendActivationCode / sendCouponMsg): screens showing counts subscribe and refetch.
import { useEffect, useRef } from 'react'

type Kind = 'activationCode' | 'coupon'
type Listener = (kind: Kind) => void

const listeners = new Set<Listener>()

export const signalCountersRefresh = (kind: Kind): void => {
  for (const listener of listeners) listener(kind)
}

export const useCountersRefresh = (onRefresh: Listener): void => {
  const latest = useRef(onRefresh)
  latest.current = onRefresh
  useEffect(() => {
    const listener: Listener = (kind) => latest.current(kind)
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [])
}
