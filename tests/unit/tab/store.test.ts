import { describe, expect, it } from 'vitest'
import type { CoreEvent, Delivered } from '../../../worker/protocol/events.ts'
import { applyBatch, fromSnapshot, initialShared, reduce, type SharedState } from '../../../src/store/shared-state.ts'
import { createAppStore } from '../../../src/store/app-store.ts'
import { device, snapshot } from './fixtures.ts'

const at = (seq: number, event: CoreEvent): Delivered => ({ seq, event })

describe('slice reducers', () => {
  it('SessionChanged replaces the session', () => {
    const next = reduce(initialShared, { _tag: 'SessionChanged', loggedIn: true, user: { username: 'a', userType: 1, phone: '1' }, phone: '1' })
    expect(next.session).toEqual({ loggedIn: true, user: { username: 'a', userType: 1, phone: '1' }, phone: '1' })
  })

  it('DeviceListLoading sets the loading flag and keeps the list', () => {
    const withList = { ...initialShared, devices: { ...initialShared.devices, list: [device()] } }
    const next = reduce(withList, { _tag: 'DeviceListLoading', loading: true })
    expect(next.devices.loading).toBe(true)
    expect(next.devices.list).toHaveLength(1)
  })

  it('DeviceListLoaded stores the list, the fetch time, and clears loading and error', () => {
    const failing = { ...initialShared, devices: { list: [], fetchedAt: null, loading: true, error: 'x' } }
    const next = reduce(failing, { _tag: 'DeviceListLoaded', devices: [device(), device({ userCardId: 2 })], fetchedAt: 99 })
    expect(next.devices).toEqual({ list: [device(), device({ userCardId: 2 })], fetchedAt: 99, loading: false, error: null })
  })

  it('DeviceListFailed keeps the last list and records the message', () => {
    const loaded = { ...initialShared, devices: { list: [device()], fetchedAt: 5, loading: true, error: null } }
    const next = reduce(loaded, { _tag: 'DeviceListFailed', msg: '服务器错误' })
    expect(next.devices).toEqual({ list: [device()], fetchedAt: 5, loading: false, error: '服务器错误' })
  })

  it('MealTypesLoaded replaces the meal type groups', () => {
    const groups = [{ label: 'A', value: 'a', previewUrl: '', index: 0, androidVersions: [] }]
    expect(reduce(initialShared, { _tag: 'MealTypesLoaded', groups }).mealTypes).toEqual(groups)
  })

  it('MaintenanceChanged stores the maintenance message', () => {
    const maintenance = { maintenanceSwitch: true, maintenanceContent: '维护中', showTime: '12:00' }
    expect(reduce(initialShared, { _tag: 'MaintenanceChanged', maintenance }).maintenance).toEqual(maintenance)
  })

  it('PushStatusChanged stores the status and attempts', () => {
    expect(reduce(initialShared, { _tag: 'PushStatusChanged', status: 'reconnecting', reconnectAttempts: 3 }).push)
      .toEqual({ status: 'reconnecting', reconnectAttempts: 3 })
  })

  it('CardCouponChanged replaces the counters', () => {
    expect(reduce(initialShared, { _tag: 'CardCouponChanged', counters: { my: 3, activationCode: 2, coupon: 1 } }).counters)
      .toEqual({ my: 3, activationCode: 2, coupon: 1 })
  })

  it('AnnouncementFlagChanged sets the announcement flag', () => {
    expect(reduce(initialShared, { _tag: 'AnnouncementFlagChanged', active: true }).announcementActive).toBe(true)
  })

  it('SystemNameChanged sets the system name', () => {
    expect(reduce(initialShared, { _tag: 'SystemNameChanged', systemName: '星云' }).systemName).toBe('星云')
  })

  it.each<CoreEvent>([
    { _tag: 'ShowToast', text: 'x', delayMs: 0 },
    { _tag: 'NavigateTo', to: '/', replace: true, delayMs: 0 },
    { _tag: 'ShowModal', key: 'k', title: 't', content: 'c', confirmText: 'ok', action: 'none', delayMs: 0 },
    { _tag: 'ClearRepairFlag' },
    { _tag: 'CountersRefresh', kind: 'coupon' },
  ])('effect event $_tag leaves the state untouched', (event) => {
    expect(reduce(initialShared, event)).toBe(initialShared)
  })

  it('an event keeps the identity of the slices it does not concern', () => {
    const next = reduce(initialShared, { _tag: 'SystemNameChanged', systemName: 'n' })
    expect(next.devices).toBe(initialShared.devices)
    expect(next.session).toBe(initialShared.session)
  })
})

describe('applyBatch', () => {
  it('folds state events in order and records the last seq', () => {
    const next = applyBatch(initialShared, [
      at(1, { _tag: 'SystemNameChanged', systemName: 'a' }),
      at(2, { _tag: 'SystemNameChanged', systemName: 'b' }),
    ])
    expect(next.systemName).toBe('b')
    expect(next.seq).toBe(2)
  })

  it('skips events at or below the current seq (already in the snapshot)', () => {
    const state: SharedState = { ...initialShared, seq: 5, systemName: 'kept' }
    const next = applyBatch(state, [at(4, { _tag: 'SystemNameChanged', systemName: 'old' }), at(5, { _tag: 'SystemNameChanged', systemName: 'old' })])
    expect(next).toBe(state)
  })

  it('ignores effect events carried with seq null', () => {
    const next = applyBatch(initialShared, [{ seq: null, event: { _tag: 'ShowToast', text: 'x', delayMs: 0 } }])
    expect(next).toBe(initialShared)
  })
})

describe('fromSnapshot', () => {
  it('maps every snapshot field onto the store state', () => {
    const s = snapshot()
    expect(fromSnapshot(s)).toEqual({
      seq: 7, session: s.session, devices: s.devices, mealTypes: s.mealTypes, maintenance: s.maintenance, push: s.push,
      counters: s.cardCoupon, announcementActive: true, systemName: '星云',
    })
  })
})

describe('the app store', () => {
  it('loads a snapshot, then applies only newer live events', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ seq: 10, systemName: 'A' }))
    store.getState().applyBatch([at(10, { _tag: 'SystemNameChanged', systemName: 'stale' }), at(11, { _tag: 'SystemNameChanged', systemName: 'B' })])
    expect(store.getState().systemName).toBe('B')
    expect(store.getState().seq).toBe(11)
  })

  it('keeps the tab-only slice across snapshots and batches', () => {
    const store = createAppStore()
    store.getState().setTab({ oneClickRepair: true, viewerCardId: 42 })
    store.getState().loadSnapshot(snapshot())
    store.getState().applyBatch([at(8, { _tag: 'AnnouncementFlagChanged', active: false })])
    expect(store.getState().tab).toMatchObject({ oneClickRepair: true, viewerCardId: 42 })
    expect(typeof store.getState().applyBatch).toBe('function')
  })

  it('builds independent stores', () => {
    const a = createAppStore()
    const b = createAppStore()
    a.getState().setTab({ updateIndex: 'my' })
    expect(b.getState().tab.updateIndex).toBeNull()
  })
})
