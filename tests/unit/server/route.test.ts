// The generic route helper on a bare app: unexpected errors become a 500 envelope without details, domain errors a
// Chinese envelope, responses are encoded with the endpoint's schema, public routes still see a valid caller.
import * as Schema from 'effect/Schema'
import { describe, expect, it } from 'vitest'
import { endpoint, NoPayload } from '../../../worker/protocol/endpoint.ts'
import { buildApp } from '../../../server/app.ts'
import type { Auth, AuthUser } from '../../../server/context.ts'
import { DomainError } from '../../../server/http/errors.ts'
import { bindRouting, publicRoute, route } from '../../../server/http/route.ts'

const alice: AuthUser = { id: 1, username: 'alice', phone: '13000000000', userType: 1, token: 'tok' }
const fakeAuth: Auth = {
  userFromToken: async (token) => (token === 'tok' ? alice : null),
  findUser: async () => null,
}

const setup = () => {
  const app = buildApp(true)
  bindRouting(app, fakeAuth)
  return app
}

const Query = Schema.Struct({ n: Schema.Number, flag: Schema.optional(Schema.Boolean), name: Schema.optional(Schema.String) })

describe('route helper', () => {
  it('an unexpected exception answers 500 with 服务器错误 and nothing of the error', async () => {
    const app = setup()
    route(app, endpoint({ name: 'boom', method: 'GET', repeatable: true, path: '/boom', request: NoPayload, response: Schema.Unknown }), () => {
      throw new Error('secret detail at /srv/x.ts:12')
    })
    const response = await app.request('/boom', { headers: { Authorization: 'tok' } })
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ status: 500, success: false, msg: '服务器错误', data: null })
    expect(text).not.toContain('secret')
  })

  it('a domain error becomes an HTTP 200 envelope with its status and message', async () => {
    const app = setup()
    route(app, endpoint({ name: 'busy', method: 'POST', repeatable: true, path: '/busy', request: NoPayload, response: Schema.Unknown }), () => {
      throw new DomainError(5200, '云手机启动中')
    })
    const response = await app.request('/busy', { method: 'POST', headers: { Authorization: 'tok' } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 5200, success: false, msg: '云手机启动中', data: null })
  })

  it('data that does not fit the response schema is a server error, not a malformed answer', async () => {
    const app = setup()
    route(app, endpoint({ name: 'bad', method: 'GET', repeatable: true, path: '/bad', request: NoPayload, response: Schema.Number }), () => 'nope' as never)
    const response = await app.request('/bad', { headers: { Authorization: 'tok' } })
    expect(response.status).toBe(500)
  })

  it('query strings are coerced per the request schema and unknown keys pass as text', async () => {
    const app = setup()
    let seen: unknown
    route(app, endpoint({ name: 'q', method: 'GET', repeatable: true, path: '/q', request: Query, response: Schema.Unknown }), ({ payload }) => {
      seen = payload
      return null
    })
    await app.request('/q?n=42&flag=true&name=007', { headers: { Authorization: 'tok' } })
    expect(seen).toEqual({ n: 42, flag: true, name: '007' })
  })

  it('a missing payload on a POST is an empty object', async () => {
    const app = setup()
    route(app, endpoint({ name: 'empty', method: 'POST', repeatable: true, path: '/empty', request: NoPayload, response: Schema.String }), ({ user }) => user.username)
    const response = await app.request('/empty', { method: 'POST', headers: { Authorization: 'tok' } })
    expect(await response.json()).toMatchObject({ status: 0, success: true, data: 'alice' })
  })

  it('a public route runs without a token and still sees the caller when one is sent', async () => {
    const app = setup()
    publicRoute(app, endpoint({ name: 'who', method: 'GET', repeatable: true, path: '/who', request: NoPayload, response: Schema.String }), ({ user }) => user?.username ?? '游客')
    expect((await (await app.request('/who')).json()).data).toBe('游客')
    expect((await (await app.request('/who', { headers: { Authorization: 'tok' } })).json()).data).toBe('alice')
  })

  it('registering the same endpoint twice is refused', () => {
    const app = setup()
    const e = endpoint({ name: 'twice', method: 'GET', repeatable: true, path: '/twice', request: NoPayload, response: Schema.Unknown })
    route(app, e, () => null)
    expect(() => route(app, e, () => null)).toThrow('registered twice')
  })
})
