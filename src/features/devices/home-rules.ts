// Pure rules behind the home pieces (kept free of antd-mobile so node tests import them): the readable phone type
// name, the pop-up ads' once-per-tab-session rule (popUpAdsList), and what an ad click does.
import type { MealTypeGroup } from '../../../worker/protocol/pay.ts'
import { adTarget, type AdLike } from './ad-click.ts'
import type { RoutePath } from '../../router/paths.ts'

/** phoneTypeName from the meal-type groups loaded at startup; the code itself until they arrive or when unknown. */
export const phoneTypeName = (groups: ReadonlyArray<Pick<MealTypeGroup, 'label' | 'value'>>, phoneType: string): string => {
  const label = groups.find((g) => g.value === phoneType)?.label
  return label !== undefined && label !== '' ? label : phoneType
}

/** The tab's sessionStorage (or a fake in tests). */
export type SessionStore = Pick<Storage, 'getItem' | 'setItem'>

/** sessionStorage key: set once this tab has shown its pop-up ads (tests may preset it to keep home unobstructed). */
export const POPUP_ADS_SHOWN_KEY = 'popUpAdsShown'

export const popUpAdsDue = (store: SessionStore | null): boolean => {
  try {
    return store?.getItem(POPUP_ADS_SHOWN_KEY) !== '1'
  } catch {
    return true
  }
}

export const markPopUpAdsShown = (store: SessionStore | null): void => {
  try {
    store?.setItem(POPUP_ADS_SHOWN_KEY, '1')
  } catch {
    // storage refused (private mode quota): the ads may show again on reload, nothing worse
  }
}

export interface AdClickDeps {
  readonly navigate: (to: RoutePath, search: Record<string, string>) => void
  readonly toast: (text: string) => void
}

/** §2 ad click: the ad view or the purchase page, else the spec's failed-jump toast. */
export const followAd = (ad: AdLike, failedText: string, deps: AdClickDeps): void => {
  const target = adTarget(ad)
  if (target.kind === 'failed') deps.toast(failedText)
  else deps.navigate(target.to, target.search)
}
