import { describe, expect, it } from 'vitest'
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'
import * as Effect from 'effect/Effect'
import * as TestClock from 'effect/testing/TestClock'
import { HttpPipeline } from '../../../worker/http/http-pipeline.ts'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { Session } from '../../../worker/session/session.ts'
import { ExitAction } from '../../../worker/session/exit-action.ts'
import { code, eventsOf, ok, runCore, settle, type Reply } from './harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138',
  loginId: 9, deviceStatId: 'dev-1', devServerLogLevel: 'debug', merchantSign: 'SPW', path: '/x', cardCouponPush: { my: 1, activationCode: 1, coupon: 0 } }
const tabCtx = { tabId: 'tab-a', channelCode: null }

describe('session-ending codes', () => {
  const cases: Array<[string, () => Reply, string, number]> = [
    ['HTTP 401', () => ({ http: 401, body: '' }), '登录失效，请重新登录！', 0],
    ['code 6013', () => code(6013, 'x'), '账号已在别处登录！', 500],
    ['code 6014', () => code(6014), '登录信息已过期，请重新登录。', 0],
    ['code 2', () => code(2), '账号已在其他端登录，请重新登录', 0],
    ['code 4', () => code(4), '账号已在其他端登录，请重新登录', 0],
    ['code 3004', () => code(3004), '此用户已被注销，请登录其他账号', 0],
  ]
  for (const [name, reply, text, delay] of cases) {
    it(`${name} toasts ${text} after ${delay} ms, then exits and redirects to login 500 ms later`, () =>
      runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
        const a = yield* h.addTab('tab-a')
        const b = yield* h.addTab('tab-b')
        h.routes['/api/pay/v2/meal/info/tab/list'] = reply
        const r = yield* (yield* HttpPipeline).call(catalogue.mealTypeList, {}, tabCtx)
        expect(r).toMatchObject({ ok: false, msg: text })
        if (delay > 0) {
          yield* TestClock.adjust(delay - 1)
          yield* settle
          expect(eventsOf(a, 'ShowToast')).toEqual([])
          yield* TestClock.adjust(1)
        }
        yield* settle
        expect(eventsOf(a, 'ShowToast')).toEqual([{ _tag: 'ShowToast', text, delayMs: 0 }])
        expect(eventsOf(b, 'SessionChanged')).toEqual([{ _tag: 'SessionChanged', loggedIn: false, user: null, phone: null }])
        yield* TestClock.adjust(499)
        yield* settle
        expect(eventsOf(b, 'NavigateTo')).toEqual([])
        yield* TestClock.adjust(1)
        yield* settle
        expect(eventsOf(b, 'NavigateTo')).toEqual([{ _tag: 'NavigateTo', to: '/pages/login/login', replace: true, delayMs: 0 }])
      })))
  }

  it('exits once for every tab however many calls fail together', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => ({ http: 401, body: '' })
      const http = yield* HttpPipeline
      yield* Effect.all(Array.from({ length: 8 }, () => http.call(catalogue.mealTypeList, {}, tabCtx)), { concurrency: 'unbounded' })
      yield* TestClock.adjust(1000)
      yield* settle
      expect(eventsOf(a, 'ShowToast')).toHaveLength(1)
      expect(eventsOf(a, 'SessionChanged')).toHaveLength(1)
      expect(eventsOf(a, 'NavigateTo')).toHaveLength(1)
    })))

  it('HTTP 401 exits even on a silent endpoint', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/public/v1/systemBuriedPoint/stat'] = () => ({ http: 401, body: '' })
      yield* (yield* HttpPipeline).call(catalogue.stat, { pointName: 'p' }, tabCtx)
      yield* settle
      expect(eventsOf(a, 'SessionChanged')).toHaveLength(1)
    })))
})

describe('the exit action and storage rules', () => {
  it('keeps exactly device stat id, dev-server log level, isUpdate and merchantSign on exit', () =>
    runCore({ storage: loggedIn }, () => Effect.gen(function* () {
      yield* (yield* ExitAction).run({ redirect: false })
      const keys = [...(yield* (yield* Storage).keys())].sort()
      expect(keys).toEqual(['devServerLogLevel', 'deviceStatId', 'isUpdate', 'merchantSign'])
    })))

  it('does not redirect when told not to', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      yield* (yield* ExitAction).run({ redirect: false })
      yield* TestClock.adjust(5000)
      yield* settle
      expect(eventsOf(a, 'NavigateTo')).toEqual([])
    })))

  it('first launch without isUpdate clears everything but device stat id and log level, then sets isUpdate', () =>
    runCore({ storage: { ...loggedIn, isUpdate: null as never } }, () => Effect.gen(function* () {
      const storage = yield* Storage
      expect([...(yield* storage.keys())].sort()).toEqual(['devServerLogLevel', 'deviceStatId', 'isUpdate'])
      expect(yield* storage.get('deviceStatId')).toBe('dev-1')
      expect(yield* storage.get('token')).toBeNull()
    })))

  it('a later launch with isUpdate keeps storage', () =>
    runCore({ storage: loggedIn }, () => Effect.gen(function* () {
      expect(yield* (yield* Storage).get('token')).toBe('tok')
    })))

  it('creates the per-browser id once and keeps it', () =>
    runCore({}, () => Effect.gen(function* () {
      const id = yield* (yield* Storage).get('deviceStatId')
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      yield* (yield* ExitAction).run({ redirect: false })
      expect(yield* (yield* Storage).get('deviceStatId')).toBe(id)
    })))
})

describe('login and logout', () => {
  const kp = forge.pki.rsa.generateKeyPair(1024)
  const pem = forge.pki.publicKeyToPem(kp.publicKey)

  it('logs in with the RSA PKCS#1 v1.5 of the lowercase hex MD5 of the password, stores the session, logs the visit and loads the list', () =>
    runCore({ storage: { isUpdate: '1', deviceStatId: 'dev-1' } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      let decrypted = ''
      h.routes['/api/user/v1/client/login/getPbKey'] = () => ok(pem.replace(/-----[^-]+-----|\n/g, ''))
      h.routes['/api/user/v1/client/login'] = (req) => {
        decrypted = kp.privateKey.decrypt(forge.util.decode64((req.body as { password: string }).password), 'RSAES-PKCS1-V1_5')
        return ok({ token: 'T1', username: 'demo', userType: 1, phone: '13800138000' })
      }
      const r = yield* (yield* Session).login({ phone: '13800138000', password: 'Demo@2026' }, tabCtx)
      expect(r).toEqual({ ok: true, data: { username: 'demo', userType: 1, phone: '13800138000' } })
      expect(decrypted).toBe(SparkMD5.hash('Demo@2026'))
      expect(h.requestsTo('/api/user/v1/client/login')[0].body).toMatchObject({ phone: '13800138000', client: 7, uuid: 'dev-1' })
      const storage = yield* Storage
      expect(yield* storage.get('token')).toBe('T1')
      expect(yield* storage.get('loginId')).toBe(77)
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')[0].body).toEqual({ uuid: 'dev-1', operationType: 1, phoneNumber: '13800138000' })
      yield* settle
      expect(eventsOf(a, 'SessionChanged')).toEqual([{ _tag: 'SessionChanged', loggedIn: true, user: r.ok ? r.data : null, phone: '13800138000' }])
      expect(eventsOf(a, 'DeviceListLoaded')).toHaveLength(1)
      expect(h.requestsTo('/api/pay/v2/meal/info/tab/list')).toHaveLength(1)
    })))

  it('logout sends visit log type 2 with the loginId, then exits to login', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      yield* (yield* Session).logout(tabCtx)
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed').at(-1)?.body).toEqual({ uuid: 'dev-1', operationType: 2, id: 9 })
      yield* TestClock.adjust(500)
      yield* settle
      expect(eventsOf(a, 'NavigateTo')).toHaveLength(1)
      expect(yield* (yield* Storage).get('token')).toBeNull()
    })))

  it('a launch with a token logs the visit (type 1) and loads devices and meal types', () =>
    runCore({ storage: loggedIn, launch: true }, (h) => Effect.gen(function* () {
      yield* settle
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')[0].body).toMatchObject({ operationType: 1, phoneNumber: '138' })
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')).toHaveLength(1)
      expect(h.requestsTo('/api/pay/v2/meal/info/tab/list')).toHaveLength(1)
      expect(h.requestsTo('/api/public/v1/system/config')).toHaveLength(1)
    })))

  it('a launch without a token loads neither devices nor meal types', () =>
    runCore({ launch: true }, (h) => Effect.gen(function* () {
      yield* settle
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')).toHaveLength(0)
      expect(h.requestsTo('/api/pay/v2/meal/info/tab/list')).toHaveLength(0)
      expect(h.requestsTo('/api/public/v1/room/getRoomMaintenanceMsg')).toHaveLength(1)
    })))
})
