import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as TestClock from 'effect/testing/TestClock'
import { PushRules } from '../../../worker/push/push-rules.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import type { PushMessage } from '../../../worker/protocol/push.ts'
import { EventHub, eventsOf, ok, runCore, settle, TabRegistry, type FakeTab } from './harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138', deviceStatId: 'dev-1' }
const VIEWER = '/package/cloudPhoneView/cloudPhoneView'
const viewer = (cardId: number, oneClickRepair = false) => ({ route: { path: VIEWER, search: {}, viewerCardId: cardId, oneClickRepair } })
/** the transient events a tab got (state events such as PushStatusChanged are not route-dependent). */
const effects = (t: FakeTab) => t.received.filter((d) => d.seq === null).map((d) => d.event)
const handle = (m: PushMessage) => Effect.gen(function* () {
  ;(yield* PushRules).handle(m)
})

describe('push message rules', () => {
  it('changeCard toasts 云手机已切换，请重新进入 after 500 ms and goes home after 1500 ms on home and in the viewer of that card', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const home = yield* h.addTab('home')
      const alias = yield* h.addTab('alias', { route: { path: '/', search: {} } })
      const view = yield* h.addTab('view', viewer(7))
      const other = yield* h.addTab('other', { route: { path: '/package/setUp/setUp', search: {} } })
      yield* handle({ type: 'changeCard', data: { userCardId: 7 } })
      yield* TestClock.adjust(499)
      yield* settle
      expect(eventsOf(home, 'ShowToast')).toEqual([])
      yield* TestClock.adjust(1)
      yield* settle
      for (const t of [home, alias, view]) expect(eventsOf(t, 'ShowToast')).toEqual([{ _tag: 'ShowToast', text: '云手机已切换，请重新进入' }])
      yield* TestClock.adjust(999)
      yield* settle
      expect(eventsOf(view, 'NavigateTo')).toEqual([])
      yield* TestClock.adjust(1)
      yield* settle
      for (const t of [home, alias, view]) expect(eventsOf(t, 'NavigateTo')).toHaveLength(1)
      expect(effects(other)).toEqual([])
    })))

  it('changeCard in a viewer showing another card, or with one-click repair active, only clears the repair flag', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const otherCard = yield* h.addTab('otherCard', viewer(8))
      const repairing = yield* h.addTab('repairing', viewer(7, true))
      yield* handle({ type: 'changeCard', data: { userCardId: 7 } })
      yield* TestClock.adjust(2000)
      yield* settle
      for (const t of [otherCard, repairing]) expect(effects(t)).toEqual([{ _tag: 'ClearRepairFlag' }])
    })))

  it('changeCard does not go home if the tab started a one-click repair before 1500 ms', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const view = yield* h.addTab('view', viewer(7))
      yield* handle({ type: 'changeCard', data: { userCardId: 7 } })
      ;(yield* TabRegistry).setRoute('view', viewer(7, true).route)
      yield* TestClock.adjust(1500)
      yield* settle
      expect(eventsOf(view, 'ShowToast')).toHaveLength(1)
      expect(eventsOf(view, 'NavigateTo')).toEqual([])
    })))

  it('forcedOfflineMsg exits without redirect, and every tab has the notice to show (提示 modal with 去登录)', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a', { route: { path: '/package/setUp/setUp', search: {} } })
      const b = yield* h.addTab('b')
      yield* handle({ type: 'forcedOfflineMsg', data: { content: '您的账号在另一台设备登录' } })
      yield* TestClock.adjust(5000)
      yield* settle
      for (const t of [a, b]) {
        expect(eventsOf(t, 'SessionEnded')).toHaveLength(1)
        expect(eventsOf(t, 'NavigateTo')).toEqual([])
        expect(t.receiver.state().session.ended).toMatchObject({ notice: '您的账号在另一台设备登录', redirect: false, reason: null })
      }
      expect(yield* (yield* Storage).get('token')).toBeNull()
    })))

  it('forcedOfflineMsg is ignored while isSwitchExit is set; a flag a previous core left is cleared at start', () =>
    runCore({ storage: { ...loggedIn, isSwitchExit: '1' } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      // a worker that died during a switch left it: the switch ended with it
      expect(yield* (yield* Storage).get('isSwitchExit')).toBeNull()
      yield* (yield* Storage).set('isSwitchExit', '1')
      yield* handle({ type: 'forcedOfflineMsg', data: { content: 'x' } })
      yield* settle
      expect(effects(a)).toEqual([])
      expect(eventsOf(a, 'SessionEnded')).toEqual([])
      expect(yield* (yield* Storage).get('token')).toBe('tok')
    })))

  it('sendActivationCode and sendCouponMsg increment the total and their counter in every tab, and persist them', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      yield* handle({ type: 'sendActivationCode', data: null })
      yield* handle({ type: 'sendCouponMsg', data: {} })
      yield* handle({ type: 'sendCouponMsg', data: {} })
      yield* settle
      expect(a.receiver.state().counters).toEqual({ my: 3, activationCode: 1, coupon: 2 })
      yield* (yield* EventHub).flushed
      expect(yield* (yield* Storage).get('cardCouponPush')).toEqual({ my: 3, activationCode: 1, coupon: 2 })
    })))

  it('systemAnnouncementMsg sets the announcement flag', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      yield* handle({ type: 'systemAnnouncementMsg', data: null })
      yield* settle
      expect(eventsOf(a, 'AnnouncementFlagChanged')).toEqual([{ _tag: 'AnnouncementFlagChanged', active: true }])
    })))

  it('removeAuth sends home and viewer tabs home, then after 500 ms shows 授权取消通知 naming the disk; a viewer of another card ignores it', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const home = yield* h.addTab('home')
      const same = yield* h.addTab('same', viewer(5))
      const diff = yield* h.addTab('diff', viewer(6))
      const setup = yield* h.addTab('setup', { route: { path: '/package/setUp/setUp', search: {} } })
      yield* handle({ type: 'removeAuth', data: { userCardId: 5, diskName: '云手机-01' } })
      yield* settle
      for (const t of [home, same]) expect(eventsOf(t, 'NavigateTo')).toEqual([{ _tag: 'NavigateTo', to: '/pages/index/index', replace: true }])
      yield* TestClock.adjust(499)
      yield* settle
      expect(eventsOf(home, 'ShowModal')).toEqual([])
      yield* TestClock.adjust(1)
      yield* settle
      for (const t of [home, same]) {
        expect(eventsOf(t, 'ShowModal')).toEqual([{
          _tag: 'ShowModal', key: 'removeAuth:云手机-01', title: '授权取消通知',
          content: '云手机「云手机-01」的授权已被取消，已为您退出该云手机', confirmText: '确定',
        }])
      }
      expect(effects(diff)).toEqual([])
      expect(effects(setup)).toEqual([])
    })))

  it('refreshCloudPhoneList refetches the list and broadcasts it; pushes during that load make one more load, not one each', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const b = yield* h.addTab('b')
      h.routes['/api/resources/v6/client/device/info/getDeviceList'] = () => ok([])
      yield* handle({ type: 'refreshCloudPhoneList', data: null })
      yield* settle
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')).toHaveLength(1)
      for (const t of [a, b]) expect(eventsOf(t, 'DeviceListLoaded')).toHaveLength(1)
      yield* Effect.all([1, 2, 3].map(() => handle({ type: 'refreshCloudPhoneList', data: null })), { concurrency: 'unbounded' })
      yield* settle
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')).toHaveLength(3)
      for (const t of [a, b]) expect(eventsOf(t, 'DeviceListLoaded')).toHaveLength(3)
    })))
})
