// Home rules without a browser: readable phone type names, the pop-up ads' once-per-tab-session rule, the ad click
// wiring, and the device texts living in the i18n catalogue.
import { describe, expect, it } from 'vitest'
import {
  followAd, markPopUpAdsShown, phoneTypeName, popUpAdsDue, POPUP_ADS_SHOWN_KEY, type SessionStore,
} from '../../../src/features/devices/home-rules.ts'
import { devicesZhCN as devicesText } from '../../../src/i18n/zh-CN.devices.ts'
import { zhCN } from '../../../src/i18n/zh-CN.ts'

const groups = [
  { label: '标准版', value: 'STANDARD' },
  { label: '性能版', value: 'PERFORMANCE' },
  { label: '', value: 'NAMELESS' },
]

describe('phone type name', () => {
  it('shows the meal-type label of a known phone type', () => {
    expect(phoneTypeName(groups, 'PERFORMANCE')).toBe('性能版')
  })

  it('falls back to the code when the type is unknown, unnamed, or the meal types have not arrived', () => {
    expect(phoneTypeName(groups, 'ULTRA')).toBe('ULTRA')
    expect(phoneTypeName(groups, 'NAMELESS')).toBe('NAMELESS')
    expect(phoneTypeName([], 'STANDARD')).toBe('STANDARD')
  })
})

const memoryStore = (): SessionStore & { data: Map<string, string> } => {
  const data = new Map<string, string>()
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) }
}

describe('pop-up ads once per tab session', () => {
  it('are due in a fresh tab and not after they were shown', () => {
    const store = memoryStore()
    expect(popUpAdsDue(store)).toBe(true)
    markPopUpAdsShown(store)
    expect(store.data.get(POPUP_ADS_SHOWN_KEY)).toBe('1')
    expect(popUpAdsDue(store)).toBe(false)
  })

  it('another tab (its own session store) still gets them', () => {
    const first = memoryStore()
    markPopUpAdsShown(first)
    expect(popUpAdsDue(memoryStore())).toBe(true)
  })

  it('a storage that throws or is missing never blocks home', () => {
    const broken: SessionStore = { getItem: () => { throw new Error('denied') }, setItem: () => { throw new Error('denied') } }
    expect(popUpAdsDue(broken)).toBe(true)
    expect(() => markPopUpAdsShown(broken)).not.toThrow()
    expect(popUpAdsDue(null)).toBe(true)
  })
})

describe('ad click wiring', () => {
  const run = (ad: Omit<Parameters<typeof followAd>[0], 'id'>) => {
    const calls: Array<[string, unknown]> = []
    followAd({ id: 3, ...ad }, '传送门传送失败...', {
      navigate: (to, search) => calls.push(['navigate', { to, search }]),
      toast: (text) => calls.push(['toast', text]),
    })
    return calls
  }

  it('an absolute http(s) clickUrl opens the ad view with that url', () => {
    expect(run({ clickUrl: 'https://ads.example.com/spring?a=1' })).toEqual([
      ['navigate', { to: '/package/adView/adView', search: { url: 'https://ads.example.com/spring?a=1', adId: '3' } }],
    ])
    expect(run({ clickUrl: 'http://127.0.0.1:8080/ads/promo/spring' })[0]![0]).toBe('navigate')
  })

  it('"1" opens the purchase page with phoneType and androidVersion only when both are present', () => {
    expect(run({ clickUrl: '1', phoneType: 'PERFORMANCE', androidVersion: '12' })).toEqual([
      ['navigate', { to: '/package/purchase/purchase', search: { phoneType: 'PERFORMANCE', androidVersion: '12' } }],
    ])
    expect(run({ clickUrl: '1', phoneType: 'PERFORMANCE', androidVersion: null })).toEqual([
      ['navigate', { to: '/package/purchase/purchase', search: {} }],
    ])
  })

  it('any other clickUrl, including other schemes, only shows the failed-jump toast', () => {
    for (const clickUrl of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x.example', 'www.example.com', '2', '', null]) {
      expect(run({ clickUrl })).toEqual([['toast', '传送门传送失败...']])
    }
  })

  it('the toast text is the spec\'s from the catalogue', () => {
    expect(devicesText.home.adFailed).toBe('传送门传送失败...')
  })
})

describe('device texts in the i18n catalogue', () => {
  it('the device screens read the same object the catalogue exposes as zhCN.devices', () => {
    expect(devicesText).toBe(zhCN.devices)
    expect(zhCN.devices.viewer.title).toBe('云手机')
    expect(zhCN.devices.remainingDaysHours(2, 5)).toBe('剩2天5小时')
    expect(zhCN.devices.expired).toBe('已过期')
  })
})
