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
  return makeCoreApi((effect) => Effect.runPromiseWith(context)(effect))
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

  it('lets a tab read and write only the tab-writable keys: any other key is refused at the boundary', () =>
    runCore({ storage: loggedIn }, () => Effect.gen(function* () {
      const api = yield* apiFor
      yield* Effect.promise(() => api.setLocal('path', '/package/setUp/setUp'))
      expect(yield* Effect.promise(() => api.getLocal('path'))).toBe('/package/setUp/setUp')
      const refused = (p: Promise<unknown>) => Effect.promise(() => p.then(() => 'answered', (e: Error) => e.message))
      expect(yield* refused(api.getLocal('token' as never))).toMatch(/^命令无效（getLocal）：Expected "path"/)
      expect(yield* refused(api.setLocal('token' as never, 'forged'))).toMatch(/^命令无效（setLocal）/)
      expect(yield* (yield* Storage).get('token')).toBe('tok')
      // the core's own flag, and the §3 keys no rule reads, are not a tab's to write
      for (const key of ['isSwitchExit', 'paymentPopupVisible', 'windowHeight', 'updateIndex']) {
        expect(yield* refused(api.setLocal(key as never, '1'))).toMatch(/^命令无效/)
        expect(yield* (yield* Storage).get(key as never)).toBeNull()
      }
    })))

  it('answers an unknown endpoint name with a failure value naming the command, not an exception', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const api = yield* apiFor
      const r = yield* Effect.promise(() => (api.call as (n: string) => Promise<unknown>)('nope'))
      expect(r).toEqual({ ok: false, status: 0, msg: expect.stringMatching(/^命令无效（call）：Expected an endpoint of the catalogue/), silent: false, seq: 0 })
      expect(h.requests).toHaveLength(0)
    })))

  it('refuses a malformed command at the boundary, before any request: a Reply command with a failure value', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const api = yield* apiFor
      const login = api.login as (input: unknown) => Promise<unknown>
      expect(yield* Effect.promise(() => login({ phone: 13800138000, password: 'x' }))).toEqual({
        ok: false, status: 0, silent: false, seq: 0, msg: expect.stringMatching(/^命令无效（login）：Expected string\s+at \[0\]\["phone"\]/),
      })
      // a payload the endpoint's request schema refuses: the same failure, and no request either
      const call = api.call as (name: string, payload: unknown) => Promise<{ ok: boolean; msg?: string }>
      const bad = yield* Effect.promise(() => call('noticeAll', { pageNum: 'one' }))
      expect(bad).toMatchObject({ ok: false, msg: expect.stringMatching(/^命令无效（call noticeAll）：Expected number/) })
      expect(h.requests).toHaveLength(0)
    })))

  it('refuses a malformed command without a Reply by rejecting with the reason (a route without a path)', () =>
    runCore({}, () => Effect.gen(function* () {
      const api = yield* apiFor
      const report = api.reportRoute as (route: unknown) => Promise<void>
      const reason = yield* Effect.promise(() => report({ search: {} }).then(() => 'answered', (e: Error) => e.message))
      expect(reason).toMatch(/^命令无效（reportRoute）：Missing key\s+at \[0\]\["path"\]/)
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
