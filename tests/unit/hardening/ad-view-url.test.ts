// Issue 11 finding 8: the ad view frames only a url the ad list gives that ad; a link's own ?url= is refused.
import { describe, expect, it } from 'vitest'
import { adFrameUrl, adTarget } from '../../../src/features/devices/ad-click.ts'

const ads = [
  { id: 3, clickUrl: 'https://ads.example/spring' },
  { id: 4, clickUrl: '1' },
]

describe('ad view url', () => {
  it('frames the url the ad list names for that ad', () => {
    expect(adFrameUrl(ads, '3', 'https://ads.example/spring')).toBe('https://ads.example/spring')
  })

  it('refuses an http(s) url the ad does not name, another ad\'s url, a missing or malformed id', () => {
    expect(adFrameUrl(ads, '3', 'https://evil.example/phish')).toBeNull()
    expect(adFrameUrl(ads, '4', 'https://ads.example/spring')).toBeNull()
    expect(adFrameUrl(ads, '9', 'https://ads.example/spring')).toBeNull()
    expect(adFrameUrl(ads, '', 'https://ads.example/spring')).toBeNull()
    expect(adFrameUrl(ads, '3x', 'https://ads.example/spring')).toBeNull()
  })

  it('refuses a non-http(s) url even if an ad named it', () => {
    expect(adFrameUrl([{ id: 5, clickUrl: 'javascript:alert(1)' }], '5', 'javascript:alert(1)')).toBeNull()
  })

  it('an ad click carries the ad id, so the view can check it', () => {
    expect(adTarget({ id: 3, clickUrl: 'https://ads.example/spring' })).toMatchObject({ search: { url: 'https://ads.example/spring', adId: '3' } })
  })
})
