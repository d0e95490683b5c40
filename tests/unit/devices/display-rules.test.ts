// Timer display, the viewer page address, ad click rules and which operations a device offers.
import { describe, expect, it } from 'vitest'
import { formatDuration, timerTypeLabel } from '../../../src/features/devices/timer.ts'
import { buildViewerUrl } from '../../../src/features/devices/viewer-url.ts'
import { adTarget } from '../../../src/features/devices/ad-click.ts'
import { canDo } from '../../../src/features/devices/device-rules.ts'

describe('timer display', () => {
  it('names type 1 privileged timing and types 2 and 3 ordinary timing', () => {
    expect(timerTypeLabel(1)).toBe('特权定时')
    expect(timerTypeLabel(2)).toBe('普通定时')
    expect(timerTypeLabel(3)).toBe('普通定时')
  })

  it('shows durations in the largest units that apply', () => {
    expect(formatDuration(2 * 1440 + 3 * 60)).toBe('2天3小时')
    expect(formatDuration(45)).toBe('45分钟')
    expect(formatDuration(90)).toBe('1小时30分钟')
    expect(formatDuration(1440)).toBe('1天')
    expect(formatDuration(1440 + 5)).toBe('1天5分钟')
    expect(formatDuration(0)).toBe('0分钟')
  })
})

describe('viewer page address', () => {
  const r = { internetHttps: 'https://cloud.example.com/', sn: 'SN9', userCardId: 9, localIp: '10.0.0.9', cardToken: 'tok' }

  it('points at the service viewer page with the connect result in the query', () => {
    const url = new URL(buildViewerUrl(r)!)
    expect(url.origin + url.pathname).toBe('https://cloud.example.com/h5/screenIos/index.html')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      token: 'tok', ip: '10.0.0.9', rm: 'SN9', domainName: 'cloud.example.com', userCardId: '9', cardToken: 'tok',
    })
  })

  it('accepts a bare host as https and refuses other schemes', () => {
    expect(buildViewerUrl({ ...r, internetHttps: 'cloud.example.com:8443/' })).toMatch(/^https:\/\/cloud\.example\.com:8443\/h5\//)
    expect(buildViewerUrl({ ...r, internetHttps: 'javascript:alert(1)' })).toBeNull()
    expect(buildViewerUrl({ ...r, internetHttps: 'ftp://cloud.example.com' })).toBeNull()
  })
})

describe('ad click', () => {
  it('opens the ad view for an absolute http(s) url', () => {
    expect(adTarget({ id: 7, clickUrl: 'https://a.example/x' })).toEqual({ kind: 'navigate', to: '/package/adView/adView', search: { url: 'https://a.example/x', adId: '7' } })
  })

  it('opens purchase for "1", with phone type and version only when both exist', () => {
    expect(adTarget({ id: 1, clickUrl: '1', phoneType: 'STANDARD', androidVersion: '12' }).kind).toBe('navigate')
    expect(adTarget({ id: 1, clickUrl: '1', phoneType: 'STANDARD', androidVersion: '12' })).toMatchObject({ search: { phoneType: 'STANDARD', androidVersion: '12' } })
    expect(adTarget({ id: 1, clickUrl: '1', phoneType: 'STANDARD' })).toMatchObject({ to: '/package/purchase/purchase', search: {} })
  })

  it('fails for anything else', () => {
    expect(adTarget({ id: 1, clickUrl: 'www.example.com' })).toEqual({ kind: 'failed' })
    expect(adTarget({ id: 1, clickUrl: '2' })).toEqual({ kind: 'failed' })
    expect(adTarget({ id: 1 })).toEqual({ kind: 'failed' })
  })
})

describe('device operations offered', () => {
  const mine = { phoneAuthStatus: 0, authPhone: 0, validTime: 5000 }
  const toMe = { phoneAuthStatus: 1, authPhone: 1, validTime: 5000 }
  const byMe = { phoneAuthStatus: 1, authPhone: 0, validTime: 5000 }

  it('lets an authorised user open, reboot and repair but not reset, transfer, authorise or renew', () => {
    expect(['open', 'reboot', 'repair'].every((op) => canDo(toMe, op as never))).toBe(true)
    expect(['reset', 'replace', 'transfer', 'authorise', 'renew', 'upgrade', 'model'].some((op) => canDo(toMe, op as never))).toBe(false)
  })

  it('offers only renewal on an expired device', () => {
    const expired = { ...mine, validTime: 0 }
    expect(canDo(expired, 'renew')).toBe(true)
    expect(canDo(expired, 'open')).toBe(false)
    expect(canDo(expired, 'reboot')).toBe(false)
    expect(canDo(expired, 'upgrade')).toBe(false)
  })

  it('offers package upgrade (更多 → 套餐升级) on my own unexpired device with no authorisation either way', () => {
    expect(canDo(mine, 'upgrade')).toBe(true)
    expect(canDo(byMe, 'upgrade')).toBe(false)
    expect(canDo(toMe, 'upgrade')).toBe(false)
  })

  it('asks for the authorisation to be cancelled before a device I authorised is transferred or authorised again', () => {
    expect(canDo(byMe, 'transfer')).toBe(false)
    expect(canDo(byMe, 'authorise')).toBe(false)
    expect(canDo(byMe, 'reset')).toBe(true)
    expect(canDo(mine, 'transfer')).toBe(true)
  })
})
