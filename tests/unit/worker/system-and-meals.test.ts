import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as Fiber from 'effect/Fiber'
import * as TestClock from 'effect/testing/TestClock'
import { groupMealTypes, resolvePreviewUrl } from '../../../worker/meals/meal-groups.ts'
import { MealTypes } from '../../../worker/meals/meal-types.ts'
import { Maintenance } from '../../../worker/system/maintenance.ts'
import { eventsOf, ok, runCore, settle, code } from './harness.ts'
import { coreCall } from '../../../worker/http/http-pipeline.ts'

const maintenanceOn = { maintenanceSwitch: true, maintenanceContent: '系统升级', showTime: '2026-01-01 06:00' }

describe('maintenance poll', () => {
  it('a launch checks at once, then 300000 ms after the check', () =>
    runCore({ launch: true }, (h) => Effect.gen(function* () {
      const path = '/api/public/v1/room/getRoomMaintenanceMsg'
      yield* h.addTab('a', { launch: true })
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(1)
      yield* TestClock.adjust(299_999)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(1)
      yield* TestClock.adjust(1)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(2)
    })))

  it('each tab that opens dispatches a check, and the one poll then waits 300000 ms after the latest', () =>
    runCore({ launch: true }, (h) => Effect.gen(function* () {
      const path = '/api/public/v1/room/getRoomMaintenanceMsg'
      yield* h.addTab('a', { launch: true })
      yield* settle
      yield* TestClock.adjust(200_000)
      yield* h.addTab('b', { launch: true })
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(2)
      yield* TestClock.adjust(299_999)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(2)
      yield* TestClock.adjust(1)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(3)
    })))

  it('schedules the next check 300000 ms after a failed check, silently', () =>
    runCore({ launch: true, routes: { '/api/public/v1/room/getRoomMaintenanceMsg': () => code(500, '维护接口错误') } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a', { launch: true })
      const path = '/api/public/v1/room/getRoomMaintenanceMsg'
      yield* settle
      yield* TestClock.adjust(300_000)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(2)
      h.routes[path] = () => ({ network: true })
      yield* TestClock.adjust(300_000)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(3)
      yield* TestClock.adjust(300_000)
      yield* settle
      expect(h.requestsTo(path)).toHaveLength(4)
      expect(eventsOf(a, 'ShowToast')).toEqual([])
    })))

  it('publishes a maintenance message only when it changes; the projection numbers the periods every tab shows once', () =>
    runCore({ routes: { '/api/public/v1/room/getRoomMaintenanceMsg': () => ok(maintenanceOn) } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const m = yield* Maintenance
      yield* m.check
      yield* m.check
      yield* settle
      expect(eventsOf(a, 'MaintenanceChanged')).toEqual([{ _tag: 'MaintenanceChanged', maintenance: maintenanceOn }])
      expect(a.receiver.state().maintenance).toEqual({ msg: maintenanceOn, period: 1 })
      h.routes['/api/public/v1/room/getRoomMaintenanceMsg'] = () => ok({ ...maintenanceOn, maintenanceSwitch: false })
      yield* m.check
      h.routes['/api/public/v1/room/getRoomMaintenanceMsg'] = () => ok(maintenanceOn)
      yield* m.check
      yield* settle
      // the same text again after an off is a new period
      expect(a.receiver.state().maintenance.period).toBe(2)
    })))

  it('a check whose room status fails asks the maintenance host, whose message counts; a room status that answers decides alone', () =>
    runCore({
      routes: {
        '/api/public/v1/room/getRoomMaintenanceMsg': () => ({ network: true }),
        '/maintenance/v1/message': () => ok(maintenanceOn),
      },
    }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const m = yield* Maintenance
      yield* m.check
      yield* settle
      expect(h.requestsTo('/maintenance/v1/message')).toHaveLength(1)
      expect(a.receiver.state().maintenance).toEqual({ msg: maintenanceOn, period: 1 })
      // the API is back and says maintenance is over: the host (still showing the old file) is not asked
      h.routes['/api/public/v1/room/getRoomMaintenanceMsg'] = () => ok({ ...maintenanceOn, maintenanceSwitch: false })
      yield* m.check
      yield* settle
      expect(h.requestsTo('/maintenance/v1/message')).toHaveLength(1)
      expect(a.receiver.state().maintenance.msg?.maintenanceSwitch).toBe(false)
      // both down: nothing changes and nothing is shown
      h.routes['/api/public/v1/room/getRoomMaintenanceMsg'] = () => code(500, '维护接口错误')
      h.routes['/maintenance/v1/message'] = () => ({ network: true })
      yield* m.check
      yield* settle
      expect(a.receiver.state().maintenance.msg?.maintenanceSwitch).toBe(false)
      expect(eventsOf(a, 'ShowToast')).toEqual([])
    })))

  it('an answer overtaken by the answer of a later check is dropped: no spurious off, no second modal', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const path = '/api/public/v1/room/getRoomMaintenanceMsg'
      let release: () => void = () => {}
      const held = new Promise<void>((r) => { release = r })
      // the first check was asked before maintenance began and is answered last
      h.routes[path] = async () => {
        await held
        return ok({ ...maintenanceOn, maintenanceSwitch: false })
      }
      const a = yield* h.addTab('a')
      const m = yield* Maintenance
      const first = yield* Effect.forkChild(m.check)
      yield* settle
      h.routes[path] = () => ok(maintenanceOn)
      yield* m.check
      release()
      yield* Fiber.join(first)
      yield* m.check
      yield* settle
      expect(a.receiver.state().maintenance).toEqual({ msg: maintenanceOn, period: 1 })
      expect(eventsOf(a, 'MaintenanceChanged')).toHaveLength(1)
    })))
})

describe('meal types', () => {
  it('groups per phone type with Android versions sorted numerically and default images mapped', () => {
    const groups = groupMealTypes([
      { phoneType: 'STD', phoneTypeName: '标准型', androidVersion: '10', previewUrl: 'default' },
      { phoneType: 'PRO', phoneTypeName: '性能型', androidVersion: '12', previewUrl: 'https://img/pro.png' },
      { phoneType: 'STD', phoneTypeName: '标准型', androidVersion: '9', previewUrl: 'defaultPhonePreviewUrl' },
      { phoneType: 'STD', phoneTypeName: '标准型', androidVersion: '12', previewUrl: 'default' },
    ])
    expect(groups).toEqual([
      {
        label: '标准型', value: 'STD', previewUrl: '/cloud/phone/web/static/default-phone.png', index: 0,
        androidVersions: [
          { label: 'Android 9', value: '9', previewUrl: '/cloud/phone/web/static/default-phone-type.png' },
          { label: 'Android 10', value: '10', previewUrl: '/cloud/phone/web/static/default-phone.png' },
          { label: 'Android 12', value: '12', previewUrl: '/cloud/phone/web/static/default-phone.png' },
        ],
      },
      {
        label: '性能型', value: 'PRO', previewUrl: 'https://img/pro.png', index: 1,
        androidVersions: [{ label: 'Android 12', value: '12', previewUrl: 'https://img/pro.png' }],
      },
    ])
  })

  it('maps default and defaultPhonePreviewUrl to two different images', () => {
    expect(resolvePreviewUrl('default')).not.toBe(resolvePreviewUrl('defaultPhonePreviewUrl'))
  })

  it('ignores a meal list failure silently', () =>
    runCore({ routes: { '/api/pay/v2/meal/info/tab/list': () => code(1001, '套餐错误') } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      yield* (yield* MealTypes).load(coreCall)
      yield* TestClock.adjust(1000)
      yield* settle
      expect(a.received).toEqual([])
    })))

  it('a screen that finds no types loads them again: every tab gets them, the screen gets the outcome', () =>
    runCore({ routes: { '/api/pay/v2/meal/info/tab/list': () => code(500, '套餐服务失败') } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const b = yield* h.addTab('b')
      const meals = yield* MealTypes
      yield* meals.load(coreCall)
      const failed = yield* meals.reload({ tabId: 'a', channelCode: null })
      expect(failed).toMatchObject({ ok: false, status: 500 })
      h.routes['/api/pay/v2/meal/info/tab/list'] = () =>
        ok([{ phoneType: 'STD', phoneTypeName: '标准型', androidVersion: '12', previewUrl: 'default' }])
      const loaded = yield* meals.reload({ tabId: 'a', channelCode: null })
      yield* TestClock.adjust(1000)
      yield* settle
      expect(loaded.ok && loaded.data.map((g) => g.value)).toEqual(['STD'])
      for (const tab of [a, b]) {
        expect(tab.receiver.state().mealTypes.map((g) => g.value)).toEqual(['STD'])
        // §8: the meal list fails silently, also when a screen asked
        expect(eventsOf(tab, 'ShowToast')).toEqual([])
      }
    })))
})
