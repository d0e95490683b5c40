// SMS-code login, registration and the session refresh through the core's API, on the test layers.
import { describe, expect, it } from 'vitest'
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'
import * as Effect from 'effect/Effect'
import { makeCoreApi, type CoreServices } from '../../../worker/api/core-api.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { code, eventsOf, ok, runCore, settle } from './harness.ts'

const fresh = { isUpdate: '1', deviceStatId: 'dev-1' }
const mustBind = { ...fresh, token: 'tok', dataInfo: { username: 'wx', userType: 2, phone: 'wx_openid' }, phone: 'wx_openid' }
const QUICK = '/api/user/v5/clientLogin/applet/quickLogin'
const REGISTER = '/api/user/v5/client/register/encryptionPassWord'
const PERSONAL = '/api/user/v1/client/personalInfo'

const apiFor = Effect.gen(function* () {
  const context = yield* Effect.context<CoreServices>()
  return makeCoreApi((effect) => Effect.runPromiseWith(context)(effect))
})

describe('login with an SMS code', () => {
  it('a quick login stores the session, logs the visit, tells every tab and loads the device list', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const b = yield* h.addTab('tab-b')
      h.routes[QUICK] = () => ok({ token: 'T2', username: 'u1', userType: 1, phone: '13500135000' })
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.loginWithCode({ phone: '13500135000', code: '123456', inviteCode: 'demo' }))
      expect(r).toEqual({ ok: true, data: { username: 'u1', userType: 1, phone: '13500135000' }, seq: expect.any(Number) })
      expect(h.requestsTo(QUICK)[0].body).toEqual({ phone: '13500135000', code: '123456', inviteCode: 'demo', uuid: 'dev-1' })
      const storage = yield* Storage
      expect(yield* storage.get('token')).toBe('T2')
      expect(yield* storage.get('phone')).toBe('13500135000')
      yield* settle
      expect(yield* storage.get('loginId')).toBe(77)
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')[0].body).toEqual({ uuid: 'dev-1', operationType: 1, phoneNumber: '13500135000' })
      for (const tab of [a, b]) {
        // the answer's seq covers the event the login caused: a tab that reached it shows the session
        expect(tab.received.find((d) => d.event._tag === 'SessionChanged')!.seq).toBeLessThanOrEqual(r.seq)
        expect(eventsOf(tab, 'SessionChanged')).toEqual([{ _tag: 'SessionChanged', user: { username: 'u1', userType: 1, phone: '13500135000' }, phone: '13500135000' }])
        expect(eventsOf(tab, 'DeviceListLoaded')).toHaveLength(1)
      }
    })))

  it('an empty invitation code is not sent', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      h.routes[QUICK] = () => ok({ token: 'T2', username: 'u1', userType: 1, phone: '13500135000' })
      const api = yield* apiFor
      yield* Effect.promise(() => api.loginWithCode({ phone: '13500135000', code: '123456', inviteCode: '' }))
      expect(h.requestsTo(QUICK)[0].body).not.toHaveProperty('inviteCode')
    })))

  it('a rejected code leaves the visitor logged out and returns the server message', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes[QUICK] = () => code(1010, '验证码错误')
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.loginWithCode({ phone: '13500135000', code: '000000' }))
      expect(r).toEqual({ ok: false, status: 1010, msg: '验证码错误', silent: false, seq: 0 })
      expect(yield* (yield* Storage).get('token')).toBeNull()
      yield* settle
      expect(eventsOf(a, 'SessionChanged')).toEqual([])
      expect(h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')).toHaveLength(0)
    })))

  it('registration sends the password encrypted like login, then is logged in', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      const kp = forge.pki.rsa.generateKeyPair(1024)
      let decrypted = ''
      h.routes['/api/user/v1/client/login/getPbKey'] = () => ok(forge.pki.publicKeyToPem(kp.publicKey))
      h.routes[REGISTER] = (req) => {
        decrypted = kp.privateKey.decrypt(forge.util.decode64((req.body as { password: string }).password), 'RSAES-PKCS1-V1_5')
        return ok({ token: 'T3', username: 'u2', userType: 1, phone: '13600136000' })
      }
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.loginWithCode({ phone: '13600136000', code: '654321', password: 'abc123' }))
      expect(r.ok).toBe(true)
      expect(decrypted).toBe(SparkMD5.hash('abc123'))
      expect(h.requestsTo(REGISTER)[0].body).toMatchObject({ phone: '13600136000', code: '654321', uuid: 'dev-1' })
      expect(h.requestsTo(QUICK)).toHaveLength(0)
      expect(yield* (yield* Storage).get('token')).toBe('T3')
    })))
})

describe('refreshing the session', () => {
  it('reads personalInfo into dataInfo and phone and tells every tab', () =>
    runCore({ storage: mustBind }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const b = yield* h.addTab('tab-b')
      h.routes[PERSONAL] = () => ok({ username: 'wx', userType: 1, phone: '13900139001', nickName: '' })
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.refreshSession())
      const user = { username: 'wx', userType: 1, phone: '13900139001' }
      expect(r).toEqual({ ok: true, data: user, seq: expect.any(Number) })
      const storage = yield* Storage
      expect(yield* storage.get('dataInfo')).toEqual(user)
      expect(yield* storage.get('phone')).toBe('13900139001')
      expect(yield* storage.get('token')).toBe('tok')
      yield* settle
      for (const tab of [a, b]) {
        expect(eventsOf(tab, 'SessionChanged')).toEqual([{ _tag: 'SessionChanged', user, phone: '13900139001' }])
      }
    })))

  it('without a token makes no request and changes nothing', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.refreshSession())
      expect(r.ok).toBe(false)
      expect(h.requestsTo(PERSONAL)).toHaveLength(0)
      yield* settle
      expect(eventsOf(a, 'SessionChanged')).toEqual([])
    })))

  it('a failed personalInfo keeps the stored user', () =>
    runCore({ storage: mustBind }, (h) => Effect.gen(function* () {
      h.routes[PERSONAL] = () => code(500, '服务器错误')
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.refreshSession())
      expect(r.ok).toBe(false)
      expect(yield* (yield* Storage).get('dataInfo')).toEqual(mustBind.dataInfo)
    })))
})

describe('resetting a forgotten password', () => {
  const RESET = '/api/user/v5/user/passwordBackNew'
  it('the core encrypts the new password like login (the tab sends it in plain text) and changes no session', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const kp = forge.pki.rsa.generateKeyPair(1024)
      let decrypted = ''
      h.routes['/api/user/v1/client/login/getPbKey'] = () => ok(forge.pki.publicKeyToPem(kp.publicKey))
      h.routes[RESET] = (req) => {
        decrypted = kp.privateKey.decrypt(forge.util.decode64((req.body as { password: string }).password), 'RSAES-PKCS1-V1_5')
        return ok(null)
      }
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.resetPassword({ phone: '13600136000', code: '654321', password: 'n3wPass' }))
      expect(r).toMatchObject({ ok: true, data: false })
      expect(decrypted).toBe(SparkMD5.hash('n3wPass'))
      expect(h.requestsTo(RESET)[0].body).toMatchObject({ phone: '13600136000', code: '654321' })
      expect(yield* (yield* Storage).get('token')).toBeNull()
      yield* settle
      expect(eventsOf(a, 'SessionChanged')).toEqual([])
    })))

  it('a key that does not parse is a server error, and nothing is sent', () =>
    runCore({ storage: fresh }, (h) => Effect.gen(function* () {
      h.routes['/api/user/v1/client/login/getPbKey'] = () => ok('not a key')
      const api = yield* apiFor
      const r = yield* Effect.promise(() => api.resetPassword({ phone: '13600136000', code: '654321', password: 'n3wPass' }))
      expect(r).toEqual({ ok: false, status: 0, msg: '服务器错误', silent: false, seq: 0 })
      expect(h.requestsTo(RESET)).toHaveLength(0)
    })))
})
