// popUpAdsList (§3): the home pop-up ads, fetched once per tab session for a signed-in user; empty when done.
import { useCallback, useEffect, useState } from 'react'
import type { PopUpAd } from '../../../../features/devices/home-pieces.tsx'
import { markPopUpAdsShown, popUpAdsDue, type SessionStore } from '../../../../features/devices/home-rules.ts'
import { useCall } from '../../../../core/use-call.ts'

const sessionStore = (): SessionStore | null => {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

// The ad place is the protocol's constant, and its module also builds the ad and notice schemas (Effect Schema, ~24 kB
// gzip): imported when the ads are asked for, so the home's first render neither downloads nor evaluates them (issue 12).
const homePopUpAdPlace = () => import('../../../../../worker/protocol/messages.ts').then((m) => m.AD_PLACE_HOME_POPUP)

export const usePopUpAds = (enabled: boolean): { ads: ReadonlyArray<PopUpAd>; done: () => void } => {
  const call = useCall()
  const [ads, setAds] = useState<ReadonlyArray<PopUpAd>>([])
  useEffect(() => {
    if (!enabled || !popUpAdsDue(sessionStore())) return
    let live = true
    void homePopUpAdPlace()
      .then((adPlace) => call('getAdInfoByAdPlace', { adPlace }))
      .then((r) => {
        // empty data arrives as false (§7): nothing to show, and nothing is marked so a later visit asks again
        if (!live || !r.ok || !Array.isArray(r.data) || r.data.length === 0) return
        markPopUpAdsShown(sessionStore())
        setAds(r.data)
      })
      // the ads are optional: if their module does not load, the home shows none (a later visit asks again)
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [enabled, call])
  return { ads, done: useCallback(() => setAds([]), []) }
}
