// The ad view's url check (issue 11 finding 8): a link can carry any ?url=, so the view asks the core for the ad
// list and frames the url only when it is that ad's own clickUrl.
import { useEffect, useState } from 'react'
import { AD_PLACE_HOME_POPUP } from '../../../worker/protocol/constants.ts'
import { useCall } from '../../core/use-call.ts'
import { isHttpUrl } from '../../../worker/protocol/domain.ts'
import { adFrameUrl } from './ad-click.ts'

/** 'checking' while the ad list loads, then the url to frame, or null (refused). */
export const useAdFrameUrl = (adId: string, url: string): string | null | 'checking' => {
  const call = useCall()
  const plausible = /^\d{1,15}$/.test(adId) && isHttpUrl(url)
  const [verdict, setVerdict] = useState<string | null | 'checking'>(plausible ? 'checking' : null)
  useEffect(() => {
    if (!plausible) {
      setVerdict(null)
      return
    }
    let live = true
    setVerdict('checking')
    void call('getAdInfoByAdPlace', { adPlace: AD_PLACE_HOME_POPUP }).then((r) => {
      if (live) setVerdict(r.ok && Array.isArray(r.data) ? adFrameUrl(r.data, adId, url) : null)
    })
    return () => {
      live = false
    }
  }, [call, plausible, adId, url])
  return verdict
}
