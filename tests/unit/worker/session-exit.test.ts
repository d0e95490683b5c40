import { describe, expect, it } from 'vitest'
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'
import * as Effect from 'effect/Effect'
import * as TestClock from 'effect/testing/TestClock'
import { HttpPipeline } from '../../../worker/http/http-pipeline.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { Session } from '../../../worker/session/session.ts'
import { ExitAction } from '../../../worker/session/exit-action.ts'
import { SessionState } from '../../../worker/session/session-state.ts'
import * as Fiber from 'effect/Fiber'
import { DeviceList } from '../../../worker/devices/device-list.ts'
import { PushRules } from '../../../worker/push/push-rules.ts'
import { code, EventHub, eventsOf, ok, runCore, settle, settleUntil, type Reply } from './harness.ts'

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
    it(`${name} tells every tab ${text} after ${delay} ms as it exits, then redirects them to login 500 ms later`, () =>
      runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
        const a = yield* h.addTab('tab-a')
        const b = yield* h.addTab('tab-b')
        h.routes['/api/pay/v2/meal/info/tab/list'] = reply
        const r = yield* (yield* HttpPipeline).call('mealTypeList', {}, tabCtx)
        expect(r).toMatchObject({ ok: false, msg: text })
        if (delay > 0) {
          yield* TestClock.adjust(delay - 1)
          yield* settle
          expect(eventsOf(a, 'SessionEnded')).toEqual([])
          yield* TestClock.adjust(1)
        }
        yield* settle
        // the reason is part of the session's end, in every tab's state: each tab shows it (src/boot/state-notices.ts)
        for (const tab of [a, b]) {
          expect(tab.receiver.state().session).toMatchObject({ loggedIn: false, ended: { reason: text, redirect: true, notice: null } })
        }
        yield* TestClock.adjust(499)
        yield* settle
        expect(eventsOf(b, 'NavigateTo')).toEqual([])
        yield* TestClock.adjust(1)
        yield* settle
        expect(eventsOf(b, 'NavigateTo')).toEqual([{ _tag: 'NavigateTo', to: '/pages/login/login', replace: true }])
      })))
  }

  it('exits once for every tab however many calls fail together', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => ({ http: 401, body: '' })
      const http = yield* HttpPipeline
      yield* Effect.all(Array.from({ length: 8 }, () => http.call('mealTypeList', {}, tabCtx)), { concurrency: 'unbounded' })
      yield* TestClock.adjust(1000)
      yield* settle
      expect(eventsOf(a, 'SessionEnded')).toHaveLength(1)
      expect(eventsOf(a, 'NavigateTo')).toHaveLength(1)
    })))

  it('exits once when a call made during the 500 ms before a 6013 exit meets the same code', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const b = yield* h.addTab('tab-b')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => code(6013)
      const http = yield* HttpPipeline
      yield* http.call('mealTypeList', {}, tabCtx)
      // the session still holds its token until the exit runs: a tab (re)loading now asks again and meets 6013 again
      yield* TestClock.adjust(200)
      yield* settle
      expect(yield* http.call('mealTypeList', {}, { tabId: 'tab-b', channelCode: null })).toMatchObject({ ok: false, msg: '账号已在别处登录！' })
      yield* TestClock.adjust(2000)
      yield* settle
      for (const tab of [a, b]) {
        expect(eventsOf(tab, 'SessionEnded')).toHaveLength(1)
        expect(eventsOf(tab, 'NavigateTo')).toHaveLength(1)
      }
    })))

  it('a login during the 500 ms before a 6013 exit is a new session, and that exit does not end it', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => code(6013)
      yield* (yield* HttpPipeline).call('mealTypeList', {}, tabCtx)
      yield* TestClock.adjust(200)
      // what a login does once its reply is in (session.ts establish): the new token is the session now
      const state = yield* SessionState
      state.set('tok-2', 'other')
      yield* TestClock.adjust(2000)
      yield* settle
      expect(state.current().token).toBe('tok-2')
      expect(eventsOf(a, 'SessionEnded')).toHaveLength(0)
    })))

  it('a call sent after the exit, without a token, that meets 401 ends nothing and tells nobody again', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => code(6013)
      h.routes['/api/resources/v6/client/device/info/getDeviceList'] = (req) =>
        req.headers.Authorization ? ok([]) : { http: 401, body: '' }
      const http = yield* HttpPipeline
      yield* http.call('mealTypeList', {}, tabCtx)
      yield* TestClock.adjust(500)
      yield* settle
      expect(eventsOf(a, 'SessionEnded')).toHaveLength(1)
      // a tab that still showed the session asked for the list as the exit ran: the core sends it without a token
      expect(yield* http.call('getDeviceList', {}, tabCtx)).toMatchObject({ ok: false, silent: true })
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList').at(-1)?.headers.Authorization).toBeUndefined()
      yield* TestClock.adjust(2000)
      yield* settle
      expect(eventsOf(a, 'SessionEnded')).toEqual([{ _tag: 'SessionEnded', end: expect.objectContaining({ reason: '账号已在别处登录！' }) }])
    })))

  it('a visitor\'s call that meets 401 ends nothing (there is no session)', () =>
    runCore({ storage: { isUpdate: '1', deviceStatId: 'dev-1' } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => ({ http: 401, body: '' })
      expect(yield* (yield* HttpPipeline).call('mealTypeList', {}, tabCtx)).toMatchObject({ ok: false, silent: true })
      yield* TestClock.adjust(2000)
      yield* settle
      expect(eventsOf(a, 'SessionEnded')).toEqual([])
    })))

  it('HTTP 401 exits even on a silent endpoint', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/public/v1/systemBuriedPoint/stat'] = () => ({ http: 401, body: '' })
      yield* (yield* HttpPipeline).call('stat', { pointName: 'p' }, tabCtx)
      yield* settle
      expect(eventsOf(a, 'SessionEnded')).toHaveLength(1)
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

  it('first launch without isUpdate clears everything but device stat id and log level, then sets isUpdate (and the start stores merchantSign)', () =>
    runCore({ storage: { ...loggedIn, isUpdate: null as never, merchantSign: 'stale' } }, () => Effect.gen(function* () {
      const storage = yield* Storage
      expect([...(yield* storage.keys())].sort()).toEqual(['devServerLogLevel', 'deviceStatId', 'isUpdate', 'merchantSign'])
      expect(yield* storage.get('merchantSign')).toBe('SPW')
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
      yield* settle
      expect(yield* storage.get('loginId')).toBe(77)
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')[0].body).toEqual({ uuid: 'dev-1', operationType: 1, phoneNumber: '13800138000' })
      expect(eventsOf(a, 'SessionChanged')).toEqual([{ _tag: 'SessionChanged', user: r.ok ? r.data : null, phone: '13800138000' }])
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

  it('the core\'s start with a token loads devices, meal types and the system name; each tab that opens logs the visit and checks maintenance', () =>
    runCore({ storage: loggedIn, launch: true }, (h) => Effect.gen(function* () {
      yield* settle
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')).toHaveLength(1)
      expect(h.requestsTo('/api/pay/v2/meal/info/tab/list')).toHaveLength(1)
      expect(h.requestsTo('/api/public/v1/system/config')).toHaveLength(1)
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')).toHaveLength(0)
      yield* h.addTab('a', { launch: true })
      yield* h.addTab('b', { launch: true })
      yield* h.addTab('c', { launch: false }) // a reattach after a worker restart is not a launch
      yield* settle
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed').map((r) => r.body)).toEqual([
        { uuid: 'dev-1', operationType: 1, phoneNumber: '138' }, { uuid: 'dev-1', operationType: 1, phoneNumber: '138' },
      ])
      expect(h.requestsTo('/api/public/v1/room/getRoomMaintenanceMsg')).toHaveLength(2)
    })))

  it('without a token: neither devices nor meal types; a tab that opens checks maintenance but logs no visit', () =>
    runCore({ launch: true }, (h) => Effect.gen(function* () {
      yield* h.addTab('a', { launch: true })
      yield* settle
      expect(h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')).toHaveLength(0)
      expect(h.requestsTo('/api/pay/v2/meal/info/tab/list')).toHaveLength(0)
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')).toHaveLength(0)
      expect(h.requestsTo('/api/public/v1/room/getRoomMaintenanceMsg')).toHaveLength(1)
    })))
})

describe('several tabs, one session (decisions.md)', () => {
  const kp = forge.pki.rsa.generateKeyPair(1024)
  const pem = forge.pki.publicKeyToPem(kp.publicKey)
  const asUser = (username: string, token: string) => (h: { routes: Record<string, unknown> }) => {
    h.routes['/api/user/v1/client/login/getPbKey'] = () => ok(pem.replace(/-----[^-]+-----|\n/g, ''))
    h.routes['/api/user/v1/client/login'] = () => ok({ token, username, userType: 1, phone: '13700137000' })
  }

  it('logging in as somebody else ends the previous session first, as a logout without redirect, and no tab keeps its data', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      yield* settle
      const hub = yield* EventHub
      hub.publish({ _tag: 'CounterIncremented', kind: 'coupon' })
      asUser('other', 'T2')(h)
      const r = yield* (yield* Session).login({ phone: '13700137000', password: 'Demo@2026' }, tabCtx)
      expect(r.ok).toBe(true)
      yield* settle
      const visits = h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')
      // the old session's logout visit log went out with the old token
      expect(visits[0].body).toEqual({ uuid: 'dev-1', operationType: 2, id: 9 })
      expect(visits[0].headers.Authorization).toBe('tok')
      const tags = a.received.filter((d) => d.seq !== null).map((d) => d.event._tag)
      expect(tags.indexOf('SessionEnded')).toBeLessThan(tags.indexOf('SessionChanged'))
      expect(a.receiver.state().session.user?.username).toBe('other')
      expect(a.receiver.state().counters.coupon).toBe(0)
      yield* TestClock.adjust(1000)
      yield* settle
      expect(eventsOf(a, 'NavigateTo')).toEqual([])
      expect(yield* (yield* Storage).get('token')).toBe('T2')
    })))

  it('the calls a sign-in sets off (the old session\'s logout visit, the visit log, the list, the meal types) carry the signing-in tab\'s channelCode', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('tab-a', { channelCode: 'CHA' })
      yield* h.addTab('tab-b', { channelCode: 'CHB' })
      asUser('other', 'T2')(h)
      const r = yield* (yield* Session).login({ phone: '13700137000', password: 'Demo@2026' }, { tabId: 'tab-b', channelCode: 'CHB' })
      expect(r.ok).toBe(true)
      yield* settle
      const paths = ['/api/user/v5/visitDetailed/operationVisitDetailed', '/api/resources/v6/client/device/info/getDeviceList', '/api/pay/v2/meal/info/tab/list']
      for (const path of paths) {
        expect(h.requestsTo(path).length).toBeGreaterThan(0)
        for (const req of h.requestsTo(path)) expect(req.headers.channelCode, path).toBe('CHB')
      }
    })))

  it('a forcedOfflineMsg that arrives while the user signs in again (isSwitchExit) is not shown; once signed in, one is', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      asUser('demo', 'T2')(h)
      let answer: (r: Reply) => void = () => {}
      h.routes['/api/user/v1/client/login'] = () => new Promise<Reply>((r) => { answer = r })
      const login = yield* Effect.forkChild((yield* Session).login({ phone: '13800138000', password: 'Demo@2026' }, tabCtx))
      yield* settleUntil(() => h.requestsTo('/api/user/v1/client/login').length > 0, 'the login request')
      const storage = yield* Storage
      expect(yield* storage.get('isSwitchExit')).toBe('1')
      // the server ends this browser's old session of the account as the new one opens: 6013 pushed to its socket
      ;(yield* PushRules).handle({ type: 'forcedOfflineMsg', data: { content: '账号已在别处登录！' } })
      yield* settle
      answer(ok({ token: 'T2', username: 'demo', userType: 1, phone: '13800138000' }))
      expect((yield* Fiber.join(login)).ok).toBe(true)
      yield* TestClock.adjust(1000)
      yield* settle
      expect(yield* storage.get('isSwitchExit')).toBeNull()
      expect(yield* storage.get('token')).toBe('T2')
      const ended = eventsOf(a, 'SessionEnded')
      // the old session ended as a logout (the switch), with no notice
      expect(ended).toHaveLength(1)
      expect(JSON.stringify(ended)).not.toContain('账号已在别处登录！')
      expect(a.receiver.state().session.user?.username).toBe('demo')
      ;(yield* PushRules).handle({ type: 'forcedOfflineMsg', data: { content: '账号已在别处登录！' } })
      yield* settle
      expect(a.receiver.state().session.ended).toMatchObject({ notice: '账号已在别处登录！' })
      expect(yield* storage.get('token')).toBeNull()
    })))

  it('a failed sign-in while signed in leaves no isSwitchExit behind', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      asUser('demo', 'T2')(h)
      h.routes['/api/user/v1/client/login'] = () => code(1001, '密码错误')
      const r = yield* (yield* Session).login({ phone: '13800138000', password: 'Wrong@2026' }, tabCtx)
      expect(r.ok).toBe(false)
      expect(yield* (yield* Storage).get('isSwitchExit')).toBeNull()
      expect(yield* (yield* Storage).get('token')).toBe('tok')
    })))

  it('a result asked in a session that has ended meanwhile is neither stored nor shown', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      let answer: (r: Reply) => void = () => {}
      h.routes['/api/resources/v6/client/device/info/getDeviceList'] = () => new Promise<Reply>((r) => { answer = r })
      const devices = yield* DeviceList
      const pending = yield* Effect.forkChild(devices.refresh(tabCtx))
      yield* settleUntil(() => h.requestsTo('/api/resources/v6/client/device/info/getDeviceList').length > 0, 'the device-list request')
      yield* (yield* ExitAction).run({ redirect: false })
      answer(ok([{ id: 1 }]))
      const result = yield* Fiber.join(pending)
      yield* settle
      expect(result).toMatchObject({ ok: false, silent: true })
      expect(a.receiver.state().devices.list).toEqual([])
      expect(eventsOf(a, 'DeviceListLoaded')).toEqual([])
    })))

  it('a 401 on the logout visit log runs the exit once', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/user/v5/visitDetailed/operationVisitDetailed'] = () => ({ http: 401, body: '' })
      yield* (yield* Session).logout(tabCtx)
      yield* TestClock.adjust(1000)
      yield* settle
      expect(eventsOf(a, 'SessionEnded')).toHaveLength(1)
      expect(eventsOf(a, 'NavigateTo')).toHaveLength(1)
    })))

  it('logging in does not wait on the visit log', () =>
    runCore({ storage: { isUpdate: '1', deviceStatId: 'dev-1' } }, (h) => Effect.gen(function* () {
      asUser('demo', 'T1')(h)
      h.routes['/api/user/v5/visitDetailed/operationVisitDetailed'] = () => new Promise<Reply>(() => {})
      const login = yield* Effect.forkChild((yield* Session).login({ phone: '13800138000', password: 'Demo@2026' }, tabCtx))
      // the visit log never answers: the login ends anyway
      yield* settleUntil(() => login.pollUnsafe() !== undefined, 'the login ending')
    })))
})
