import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as TestClock from 'effect/testing/TestClock'
import { makeCoreApi, type CoreServices } from '../../../worker/api/core-api.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { EventHub, eventsOf, runCore, settle } from './harness.ts'
import { DeviceList } from '../../../worker/devices/device-list.ts'
import { coreCall } from '../../../worker/http/http-pipeline.ts'
import { reduce } from '../../../worker/protocol/projection/index.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138' }

const apiFor = Effect.gen(function* () {
  const context = yield* Effect.context<CoreServices>()
  return makeCoreApi((effect) => Effect.runPromiseWith(context)(effect), () => {})
})

const fakePort = () => ({ postMessage: () => {}, onmessage: null, close: () => {} }) as unknown as MessagePort
const hello = (path: string) => ({ tabId: `tab-${path}`, channelCode: null, route: { path, search: {} }, visible: false, launch: false })
const fresh = { generation: null, state: null }

describe('core API commands', () => {
  it('the maintenance confirm exits and redirects unless the calling tab is on login', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const watcher = yield* h.addTab('watcher', { visible: false })
      const onLogin = yield* apiFor
      yield* Effect.promise(() => onLogin.attach(hello('/pages/login/login'), fresh, fakePort()))
      yield* Effect.promise(() => onLogin.exitFromMaintenance())
      expect(yield* (yield* Storage).get('token')).toBe('tok')
      const onHome = yield* apiFor
      yield* Effect.promise(() => onHome.attach(hello('/pages/index/index'), fresh, fakePort()))
      yield* Effect.promise(() => onHome.exitFromMaintenance())
      expect(yield* (yield* Storage).get('token')).toBeNull()
      yield* TestClock.adjust(500)
      yield* settle
      expect(eventsOf(watcher, 'NavigateTo')).toHaveLength(1)
    })))

  it('lets a tab read and write only the tab-writable keys', () =>
    runCore({ storage: loggedIn }, () => Effect.gen(function* () {
      const api = yield* apiFor
      yield* Effect.promise(() => api.setLocal('path', '/package/setUp/setUp'))
      expect(yield* Effect.promise(() => api.getLocal('path'))).toBe('/package/setUp/setUp')
      expect(yield* Effect.promise(() => api.getLocal('token' as never))).toBeNull()
      yield* Effect.promise(() => api.setLocal('token' as never, 'forged'))
      expect(yield* (yield* Storage).get('token')).toBe('tok')
      // the core's own flag, and the §3 keys no rule reads, are not a tab's to write
      for (const key of ['isSwitchExit', 'paymentPopupVisible', 'windowHeight', 'updateIndex']) {
        yield* Effect.promise(() => api.setLocal(key as never, '1'))
        expect(yield* (yield* Storage).get(key as never)).toBeNull()
      }
    })))

  it('answers an unknown endpoint name with a failure value, not an exception', () =>
    runCore({}, () => Effect.gen(function* () {
      const api = yield* apiFor
      expect(yield* Effect.promise(() => (api.call as (n: string) => Promise<unknown>)('nope'))).toEqual({ ok: false, status: 0, msg: '服务器错误', silent: false })
    })))

  it('sends the calling tab channelCode with its calls', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const api = yield* apiFor
      yield* Effect.promise(() => api.attach({ ...hello('/'), channelCode: 'CH9' }, fresh, fakePort()))
      yield* Effect.promise(() => api.call('mealTypeList'))
      expect(h.requestsTo('/api/pay/v2/meal/info/tab/list')[0].headers.channelCode).toBe('CH9')
    })))

  it('the core\'s calls for every tab (a push\'s refresh, its start) carry no tab\'s channelCode; a tab\'s refresh carries its own', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const api = yield* apiFor
      yield* Effect.promise(() => api.attach({ ...hello('/'), channelCode: 'CH7' }, fresh, fakePort()))
      yield* (yield* DeviceList).refresh(coreCall)
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')[0].headers.channelCode).toBeUndefined()
      yield* Effect.promise(() => api.refreshDevices())
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')[1].headers.channelCode).toBe('CH7')
    })))

  it('exports the recent event log with the state before it, redacted, and replaying it gives the state now', () =>
    runCore({ storage: loggedIn }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      hub.publish({ _tag: 'SessionChanged', user: { username: 'demo', userType: 1, phone: '13800138000' }, phone: '13800138000' })
      hub.publish({ _tag: 'CounterIncremented', kind: 'coupon' })
      const api = yield* apiFor
      const log = yield* Effect.promise(() => api.exportLog())
      expect(JSON.stringify(log)).not.toContain('13800138000')
      expect(log.events.map((e) => e.seq)).toEqual([1, 2])
      const replayed = log.events.reduce((s, e) => reduce(s, e.event, e.seq), log.base)
      expect(replayed.counters).toEqual(hub.snapshot().counters)
      expect(replayed.seq).toBe(hub.snapshot().seq)
    })))

  it('an export after the in-memory log was trimmed still starts from the state before its first event', () =>
    runCore({ storage: loggedIn, config: { eventLogLimit: 3 } }, () => Effect.gen(function* () {
      const hub = yield* EventHub
      for (let i = 0; i < 11; i++) hub.publish({ _tag: 'CounterIncremented', kind: i % 2 === 0 ? 'coupon' : 'activationCode' })
      const api = yield* apiFor
      const log = yield* Effect.promise(() => api.exportLog())
      expect(log.events.length).toBeGreaterThanOrEqual(3)
      expect(log.events[0].seq).toBe(log.base.seq + 1)
      expect(log.events.map((e) => e.seq)).toEqual(log.events.map((_, i) => log.events[0].seq + i))
      const replayed = log.events.reduce((s, e) => reduce(s, e.event, e.seq), log.base)
      expect(replayed).toEqual(hub.snapshot())
    })))
})
