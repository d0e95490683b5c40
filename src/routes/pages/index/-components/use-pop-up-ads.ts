// popUpAdsList (§3): the home pop-up ads, fetched once per tab session for a signed-in user; empty when done.
import { startTransition, useCallback, useEffect, useState } from 'react'
import type { PopUpAd } from '../../../../features/devices/home-pieces.tsx'
import { markPopUpAdsShown, popUpAdsDue, type SessionStore } from '../../../../features/devices/home-rules.ts'
import { useCall } from '../../../../core/use-call.ts'
import { AD_PLACE_HOME_POPUP } from '../../../../../worker/protocol/constants.ts'

const sessionStore = (): SessionStore | null => {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

export const usePopUpAds = (enabled: boolean): { ads: ReadonlyArray<PopUpAd>; done: () => void } => {
  const call = useCall()
  const [ads, setAds] = useState<ReadonlyArray<PopUpAd>>([])
  useEffect(() => {
    if (!enabled || !popUpAdsDue(sessionStore())) return
    let live = true
    void call('getAdInfoByAdPlace', { adPlace: AD_PLACE_HOME_POPUP })
      .then((r) => {
        const data = r.ok ? r.data : null
        // empty data arrives as false (§7): nothing to show, and nothing is marked so a later visit asks again
        if (!live || !Array.isArray(data) || data.length === 0) return
        markPopUpAdsShown(sessionStore())
        // the pop-up (a popup and a swiper, their springs) mounts in a render React slices, not in one long task
        // while the home loads
        startTransition(() => setAds(data))
      })
    return () => {
      live = false
    }
  }, [enabled, call])
  return { ads, done: useCallback(() => setAds([]), []) }
}
