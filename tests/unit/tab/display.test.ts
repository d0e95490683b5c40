import { describe, expect, it } from 'vitest'
import {
  authMarker, authMarkerText, previewSrc, remainingText, remainingTone,
} from '../../../src/features/devices/display.ts'
import { DEFAULT_PHONE_IMAGE_URL, DEFAULT_PHONE_TYPE_IMAGE_URL } from '../../../worker/protocol/constants.ts'

describe('remaining time text', () => {
  it.each([
    [3 * 1440 + 5 * 60 + 7, '剩3天5小时'],
    [1440, '剩1天0小时'],
    [30 * 1440, '剩30天0小时'],
    [5 * 60 + 20, '剩5小时20分钟'],
    [60, '剩1小时0分钟'],
    [20, '剩20分钟'],
    [1, '剩1分钟'],
    [0, '已过期'],
    [-30, '已过期'],
  ])('%i minutes reads %s', (minutes, text) => expect(remainingText(minutes)).toBe(text))
})

describe('remaining time colour', () => {
  it.each([
    [4321, 'normal'],
    [4320, 'warning'],
    [1, 'warning'],
    [0, 'expired'],
    [-1, 'expired'],
  ])('%i minutes is %s', (minutes, tone) => expect(remainingTone(minutes)).toBe(tone))
})

describe('authorisation marker', () => {
  it('a device someone authorised to me reads 被授权', () => {
    const marker = authMarker({ phoneAuthStatus: 1, authPhone: 1 })
    expect(marker).toBe('authorisedToMe')
    expect(authMarkerText(marker!)).toBe('被授权')
  })

  it('a device I authorised to someone reads 已授权', () => {
    const marker = authMarker({ phoneAuthStatus: 1, authPhone: 0 })
    expect(marker).toBe('authorisedByMe')
    expect(authMarkerText(marker!)).toBe('已授权')
  })

  it('a device without an authorisation has no marker', () => {
    expect(authMarker({ phoneAuthStatus: 0, authPhone: 1 })).toBeNull()
  })
})

describe('preview image', () => {
  it('maps the special values to the two default images under the base path', () => {
    expect(previewSrc('default')).toBe('/cloud/phone/web/static/default-phone.png')
    expect(previewSrc('defaultPhonePreviewUrl')).toBe('/cloud/phone/web/static/default-phone-type.png')
    expect(DEFAULT_PHONE_IMAGE_URL).not.toBe(DEFAULT_PHONE_TYPE_IMAGE_URL)
  })

  it('keeps a real URL and falls back to the default image for an empty one', () => {
    expect(previewSrc('https://img.example/a.png')).toBe('https://img.example/a.png')
    expect(previewSrc('')).toBe(DEFAULT_PHONE_IMAGE_URL)
  })
})
