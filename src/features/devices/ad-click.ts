// Ad click rule (spec §2, decisions.md): an absolute http(s) clickUrl opens the ad view with it (and the ad's id);
// "1" opens purchase, passing phoneType and androidVersion only when both are present; anything else is a failed
// jump. The ad view frames a url only when the ad list names it for that ad (adFrameUrl), never a link's own ?url=.
import { isHttpUrl } from '../../../worker/protocol/domain.ts'
import { PATHS, type RoutePath } from '../../router/paths.ts'

export interface AdLike {
  readonly id: number
  readonly clickUrl?: string | null
  readonly phoneType?: string | null
  readonly androidVersion?: string | null
}

export type AdTarget =
  | { readonly kind: 'navigate'; readonly to: RoutePath; readonly search: Record<string, string> }
  | { readonly kind: 'failed' }


export const adTarget = (ad: AdLike): AdTarget => {
  const clickUrl = ad.clickUrl ?? ''
  if (isHttpUrl(clickUrl)) return { kind: 'navigate', to: PATHS.adView, search: { url: clickUrl, adId: String(ad.id) } }
  if (clickUrl === '1') {
    const search: Record<string, string> = ad.phoneType && ad.androidVersion ? { phoneType: ad.phoneType, androidVersion: ad.androidVersion } : {}
    return { kind: 'navigate', to: PATHS.purchase, search }
  }
  return { kind: 'failed' }
}

/** The url the ad view may frame: `url` when the ad list has the ad `adId` with exactly that http(s) clickUrl. */
export const adFrameUrl = (ads: ReadonlyArray<Pick<AdLike, 'id' | 'clickUrl'>>, adId: string, url: string): string | null => {
  if (!/^\d{1,15}$/.test(adId) || !isHttpUrl(url)) return null
  return ads.some((ad) => ad.id === Number(adId) && ad.clickUrl === url) ? url : null
}
