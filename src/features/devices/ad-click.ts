// Ad click rule (spec §2, decisions.md): an absolute http(s) clickUrl opens the ad view with it; "1" opens purchase,
// passing phoneType and androidVersion only when both are present; anything else is a failed jump.

export interface AdLike {
  readonly clickUrl?: string | null
  readonly phoneType?: string | null
  readonly androidVersion?: string | null
}

export type AdTarget =
  | { readonly kind: 'navigate'; readonly to: string; readonly search: Record<string, string> }
  | { readonly kind: 'failed' }

export const AD_VIEW = '/package/adView/adView'
export const PURCHASE = '/package/purchase/purchase'

export const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== ''
  } catch {
    return false
  }
}

export const adTarget = (ad: AdLike): AdTarget => {
  const clickUrl = ad.clickUrl ?? ''
  if (isHttpUrl(clickUrl)) return { kind: 'navigate', to: AD_VIEW, search: { url: clickUrl } }
  if (clickUrl === '1') {
    const search: Record<string, string> = ad.phoneType && ad.androidVersion ? { phoneType: ad.phoneType, androidVersion: ad.androidVersion } : {}
    return { kind: 'navigate', to: PURCHASE, search }
  }
  return { kind: 'failed' }
}
