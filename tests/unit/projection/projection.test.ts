// The one projection (worker/protocol/projection/): what each state event does to the shared state, and the account
// reset, in the one place both the worker and every tab fold with.
import { describe, expect, it } from 'vitest'
import type { Delivered, StateEvent } from '../../../worker/protocol/events.ts'
import { applyDelivered, initialShared, reduce, type SharedState } from '../../../worker/protocol/projection/index.ts'
import { device } from '../tab/fixtures.ts'

const user = (username: string) => ({ username, userType: 1, phone: '13800138000' })
const fold = (events: ReadonlyArray<StateEvent>, from: SharedState = initialShared) =>
  events.reduce((s, e) => reduce(s, e, s.seq + 1), from)
const ended = { _tag: 'SessionEnded', end: { at: 5, reason: '登录失效，请重新登录！', notice: null, redirect: true } } as const
const on = (content: string, showTime = '12:00') =>
  ({ _tag: 'MaintenanceChanged', maintenance: { maintenanceSwitch: true, maintenanceContent: content, showTime } }) as const
const off = { _tag: 'MaintenanceChanged', maintenance: { maintenanceSwitch: false, maintenanceContent: '', showTime: '' } } as const

describe('the projection', () => {
  it('SessionChanged logs the user in and forgets how the last session ended', () => {
    const s = fold([ended, { _tag: 'SessionChanged', user: user('a'), phone: '1' }])
    expect(s.session).toEqual({ loggedIn: true, user: user('a'), phone: '1', ended: null })
    expect(s.seq).toBe(2)
  })

  it('SessionEnded logs out, keeps why, and drops everything of the account; the service\'s own state stays', () => {
    const loggedIn = fold([
      { _tag: 'SessionChanged', user: user('a'), phone: '1' },
      { _tag: 'DeviceListLoaded', devices: [device()], fetchedAt: 9 },
      { _tag: 'MealTypesLoaded', groups: [{ label: 'A', value: 'a', previewUrl: '', index: 0, androidVersions: [] }] },
      { _tag: 'CounterIncremented', kind: 'coupon' },
      { _tag: 'AnnouncementFlagChanged', active: true },
      { _tag: 'SystemNameChanged', systemName: '星云' },
      on('维护'),
    ])
    const s = fold([ended], loggedIn)
    expect(s.session).toEqual({ loggedIn: false, user: null, phone: null, ended: ended.end })
    expect(s.devices).toEqual(initialShared.devices)
    expect(s.mealTypes).toEqual([])
    expect(s.counters).toEqual({ my: 0, activationCode: 0, coupon: 0 })
    expect(s.announcementActive).toBe(false)
    expect(s.systemName).toBe('星云')
    expect(s.maintenance).toEqual(loggedIn.maintenance)
  })

  it('a login as somebody else drops the previous account\'s state; a refresh of the same account keeps it', () => {
    const a = fold([{ _tag: 'SessionChanged', user: user('a'), phone: '1' }, { _tag: 'CounterIncremented', kind: 'coupon' }])
    expect(fold([{ _tag: 'SessionChanged', user: user('a'), phone: '2' }], a).counters.coupon).toBe(1)
    expect(fold([{ _tag: 'SessionChanged', user: user('b'), phone: '2' }], a).counters.coupon).toBe(0)
  })

  it('counts increments of each kind into its counter and into my', () => {
    const s = fold([
      { _tag: 'CounterIncremented', kind: 'coupon' }, { _tag: 'CounterIncremented', kind: 'activationCode' },
      { _tag: 'CounterIncremented', kind: 'coupon' },
    ])
    expect(s.counters).toEqual({ my: 3, coupon: 2, activationCode: 1 })
  })

  it('the device list: loading keeps the list, loaded replaces it, failed keeps the last list with the message', () => {
    const loaded = fold([{ _tag: 'DeviceListLoaded', devices: [device()], fetchedAt: 9 }, { _tag: 'DeviceListLoading', loading: true }])
    expect(loaded.devices).toEqual({ list: [device()], fetchedAt: 9, loading: true, error: null })
    expect(fold([{ _tag: 'DeviceListFailed', msg: '服务器错误' }], loaded).devices).toEqual({ list: [device()], fetchedAt: 9, loading: false, error: '服务器错误' })
  })

  it('numbers maintenance periods: a new one on switching on or a changed text, even the same text after an off', () => {
    const periods = (events: ReadonlyArray<StateEvent>) => {
      let s = initialShared
      return events.map((e) => (s = reduce(s, e, s.seq + 1)).maintenance.period)
    }
    expect(periods([off, on('维护'), on('维护'), on('维护', '13:00'), on('升级'), off, on('升级')])).toEqual([0, 1, 1, 2, 3, 3, 4])
  })

  it('push status, announcement and system name are stored as given', () => {
    const s = fold([
      { _tag: 'PushStatusChanged', status: 'reconnecting', reconnectAttempts: 3 },
      { _tag: 'AnnouncementFlagChanged', active: true }, { _tag: 'SystemNameChanged', systemName: '星云' },
    ])
    expect(s.push).toEqual({ status: 'reconnecting', reconnectAttempts: 3 })
    expect(s.announcementActive).toBe(true)
    expect(s.systemName).toBe('星云')
  })

  it('an event keeps the identity of the slices it does not concern', () => {
    const next = reduce(initialShared, { _tag: 'SystemNameChanged', systemName: 'n' }, 1)
    expect(next.devices).toBe(initialShared.devices)
    expect(next.session).toBe(initialShared.session)
  })

  it('applyDelivered folds state events in order, skips those already folded and ignores effects', () => {
    const batch: Array<Delivered> = [
      { seq: 1, event: { _tag: 'SystemNameChanged', systemName: 'a' } },
      { seq: null, event: { _tag: 'ShowToast', text: 'x' } },
      { seq: 2, event: { _tag: 'SystemNameChanged', systemName: 'b' } },
    ]
    const s = applyDelivered(initialShared, batch)
    expect(s).toMatchObject({ seq: 2, systemName: 'b' })
    expect(applyDelivered(s, batch)).toBe(s)
  })
})
