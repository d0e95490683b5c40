import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as Fiber from 'effect/Fiber'
import { WRITE_WINDOW_MS } from '../../../worker/protocol/idempotency.ts'
import * as TestClock from 'effect/testing/TestClock'
import { HttpPipeline } from '../../../worker/http/http-pipeline.ts'
import { StorageKey } from '../../../worker/protocol/storage-keys.ts'
import { Storage } from '../../../worker/storage/storage.ts'
import { code, eventsOf, ok, runCore, settle } from './harness.ts'

const tabCtx = { tabId: 'tab-a', channelCode: 'CH1' }

describe('http pipeline', () => {
  it('sends client 7, versionName 5.9.2, merchantSign SPW, the tab channelCode and the raw token', () =>
    runCore({ storage: { token: 'tok-1', isUpdate: '1' } }, (h) => Effect.gen(function* () {
      const http = yield* HttpPipeline
      yield* http.call('getDeviceList', undefined as never, tabCtx)
      const [req] = h.requestsTo('/api/resources/v6/client/device/info/getDeviceList')
      expect(req.headers).toMatchObject({ client: '7', versionName: '5.9.2', merchantSign: 'SPW', channelCode: 'CH1', Authorization: 'tok-1' })
      expect(req.headers.versions).toBeUndefined()
    })))

  it('omits channelCode and Authorization when absent and adds versions 5.1 on the visit-log call', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const http = yield* HttpPipeline
      yield* http.call('operationVisitDetailed', { uuid: 'u', operationType: 1 }, { tabId: null, channelCode: null })
      const [req] = h.requestsTo('/api/user/v5/visitDetailed/operationVisitDetailed')
      expect(req.headers.versions).toBe('5.1')
      expect('channelCode' in req.headers).toBe(false)
      expect('Authorization' in req.headers).toBe(false)
    })))

  it('sends a GET payload as a query string and any other payload as a JSON body, a missing payload as {}', () =>
    runCore({}, (h) => Effect.gen(function* () {
      h.routes['/api/resources/api/usercard/reboot'] = () => ok(true)
      const http = yield* HttpPipeline
      yield* http.call('rebootDevice', { userCardId: 42 }, tabCtx)
      yield* http.call('getPbKey', undefined as never, tabCtx)
      const [get] = h.requestsTo('/api/resources/api/usercard/reboot')
      expect(get.method).toBe('GET')
      expect(get.url.searchParams.get('userCardId')).toBe('42')
      expect(get.body).toBeUndefined()
      const [post] = h.requestsTo('/api/user/v1/client/login/getPbKey')
      expect(post.method).toBe('POST')
      expect(post.body).toEqual({})
    })))

  it('treats status 0, 5106, 5200, 5002 and 2300 as success and empty data as false', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const http = yield* HttpPipeline
      for (const status of [0, 5106, 5200, 5002, 2300]) {
        h.routes['/api/public/v1/systemBuriedPoint/stat'] = () => ({ body: { status, msg: '', data: { n: status } } })
        expect(yield* http.call('stat', { pointName: 'x' }, tabCtx)).toEqual({ ok: true, data: { n: status } })
      }
      for (const data of [null, undefined, '']) {
        h.routes['/api/public/v1/systemBuriedPoint/stat'] = () => ({ body: { status: 0, msg: '', data } })
        expect(yield* http.call('stat', { pointName: 'x' }, tabCtx)).toEqual({ ok: true, data: false })
      }
      h.routes['/api/resources/v6/client/device/info/getDeviceList'] = () => ok([])
      expect(yield* http.call('getDeviceList', {}, tabCtx)).toEqual({ ok: true, data: [] })
    })))

  it('returns a numeric body as is', () =>
    runCore({}, (h) => Effect.gen(function* () {
      h.routes['/api/public/v1/systemBuriedPoint/stat'] = () => ({ body: 12 })
      expect(yield* (yield* HttpPipeline).call('stat', { pointName: 'x' }, tabCtx)).toEqual({ ok: true, data: 12 })
    })))

  it('fails a reply that does not match the response schema with 服务器错误 instead of crashing', () =>
    runCore({}, (h) => Effect.gen(function* () {
      h.routes['/api/resources/v6/client/device/info/getDeviceList'] = () => ok([{ id: 'not-a-number' }])
      const r = yield* (yield* HttpPipeline).call('getDeviceList', {}, tabCtx)
      expect(r).toMatchObject({ ok: false, msg: '服务器错误' })
      h.routes['/api/resources/v6/client/device/info/getDeviceList'] = () => ({ body: '<html>oops' })
      expect(yield* (yield* HttpPipeline).call('getDeviceList', {}, tabCtx)).toMatchObject({ ok: false, msg: '服务器错误' })
    })))

  it('rejects a transport failure with the error body msg or 服务器错误, without a toast', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('tab-a')
      const http = yield* HttpPipeline
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => ({ http: 502, body: { msg: '网关错误' } })
      expect(yield* http.call('mealTypeList', {}, tabCtx)).toMatchObject({ ok: false, status: 502, msg: '网关错误' })
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => ({ network: true })
      expect(yield* http.call('mealTypeList', {}, tabCtx)).toMatchObject({ ok: false, msg: '服务器错误' })
      yield* TestClock.adjust(1000)
      yield* settle
      expect(eventsOf(tab, 'ShowToast')).toEqual([])
    })))

  it('times a request out after 60000 ms', () =>
    runCore({}, (h) => Effect.gen(function* () {
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => new Promise(() => {})
      const fiber = yield* Effect.forkChild((yield* HttpPipeline).call('mealTypeList', {}, tabCtx))
      yield* settle
      yield* TestClock.adjust(59_999)
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      yield* settle
      expect(fiber.pollUnsafe()).toBeDefined()
    })))

  it('rejects another failing code with its msg and toasts that msg to the calling tab after 500 ms', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const b = yield* h.addTab('tab-b')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => code(1001, '余额不足')
      const r = yield* (yield* HttpPipeline).call('mealTypeList', {}, tabCtx)
      expect(r).toEqual({ ok: false, status: 1001, msg: '余额不足', silent: false })
      yield* TestClock.adjust(499)
      yield* settle
      expect(eventsOf(a, 'ShowToast')).toEqual([])
      yield* TestClock.adjust(1)
      yield* settle
      expect(eventsOf(a, 'ShowToast')).toEqual([{ _tag: 'ShowToast', text: '余额不足' }])
      expect(eventsOf(b, 'ShowToast')).toEqual([])
    })))

  it('rejects a failing code without msg with 服务器错误 and no toast', () =>
    runCore({}, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      h.routes['/api/pay/v2/meal/info/tab/list'] = () => code(1001)
      expect(yield* (yield* HttpPipeline).call('mealTypeList', {}, tabCtx)).toMatchObject({ ok: false, msg: '服务器错误' })
      yield* TestClock.adjust(1000)
      yield* settle
      expect(eventsOf(a, 'ShowToast')).toEqual([])
    })))

  it('yields nothing for a failure of the three silent endpoints', () =>
    runCore({ storage: { token: 't', isUpdate: '1' } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('tab-a')
      const http = yield* HttpPipeline
      h.routes['/api/public/v1/systemBuriedPoint/stat'] = () => code(6014, '过期')
      h.routes['/api/resources/user/cloud/connect'] = () => code(1001, '失败')
      h.routes['/api/user/v5/visitDetailed/operationVisitDetailed'] = () => ({ http: 500, body: '' })
      expect(yield* http.call('stat', { pointName: 'p' }, tabCtx)).toMatchObject({ ok: false, silent: true })
      expect(yield* http.call('connect', { userCardId: 1 }, tabCtx)).toMatchObject({ ok: false, silent: true })
      // a keyed write (issue 40): a 5xx is a lost answer, sent again within the window, then given up, silently still
      const visit = yield* Effect.forkChild(http.call('operationVisitDetailed', { uuid: 'u', operationType: 1 }, tabCtx))
      // in steps: each send's answer is a promise the loop awaits before it sleeps again
      for (let t = 0; t < WRITE_WINDOW_MS + 10_000; t += 1_000) {
        yield* TestClock.adjust(1_000)
        yield* settle
      }
      expect(yield* Fiber.join(visit)).toMatchObject({ ok: false, silent: true })
      yield* TestClock.adjust(2000)
      yield* settle
      expect(a.received).toEqual([])
      expect(yield* (yield* Storage).get(StorageKey.token)).toBe('t')
    })))
})

describe('path templates', () => {
  it('fills {id} in a catalogue path from the payload and keeps the rest of the URL', async () => {
    const { fillPathTemplate } = await import('../../../worker/http/request.ts')
    expect(fillPathTemplate('/api/message/v1/message/notice/read/{id}', { id: 42 })).toBe('/api/message/v1/message/notice/read/42')
    expect(fillPathTemplate('/a/{id}/b', { id: 'x y' })).toBe('/a/x%20y/b')
    expect(fillPathTemplate('/a/{id}', {})).toBe('/a/{id}')
  })
})
