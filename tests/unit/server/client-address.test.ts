// The client address behind the deployment's load balancers (issue 9): X-Forwarded-For is read only from a trusted
// peer, from the right, so a client cannot choose the address its attempts are throttled under; operator routes
// refuse anything a balancer relayed.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { forwardedClient } from '../../../server/http/client-address.ts'
import { OPS_TOKEN_HEADER } from '../../../server/ops/routes.ts'
import { api, encryptPassword, startTestServer, type TestServer } from './helpers.ts'

const balancers = new Set(['10.0.0.2', '10.0.0.3'])

describe('forwardedClient', () => {
  it('ignores the header from a peer that is not a trusted balancer', () => {
    expect(forwardedClient('203.0.113.9', '198.51.100.1', balancers)).toBe('203.0.113.9')
  })

  it('takes the address the balancer appended, not what the client wrote before it', () => {
    expect(forwardedClient('10.0.0.2', '6.6.6.6, 198.51.100.7', balancers)).toBe('198.51.100.7')
  })

  it('skips a chain of trusted balancers from the right', () => {
    expect(forwardedClient('10.0.0.2', '6.6.6.6,198.51.100.7, 10.0.0.3', balancers)).toBe('198.51.100.7')
    expect(forwardedClient('10.0.0.2', '::ffff:198.51.100.8', balancers)).toBe('198.51.100.8')
  })

  it('falls back to the peer when the header is missing or names no address', () => {
    expect(forwardedClient('10.0.0.2', undefined, balancers)).toBe('10.0.0.2')
    expect(forwardedClient('10.0.0.2', 'unknown', balancers)).toBe('10.0.0.2')
    expect(forwardedClient('10.0.0.2', '10.0.0.3', balancers)).toBe('10.0.0.2')
  })
})

describe('a server behind a balancer on this host', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ trustedProxies: ['127.0.0.1'] })
  }, 120_000)
  afterAll(() => t?.stop())

  it('throttles a failed login under the forwarded client, not the balancer nor an address the client wrote', async () => {
    const base = t.server.url
    const pem = (await api<string>(base, 'POST', catalogue.getPbKey.path)).body.data
    const failed = await api(base, 'POST', catalogue.login.path, {
      headers: { 'X-Forwarded-For': '6.6.6.6, 198.51.100.7' },
      body: { phone: '13800138000', password: encryptPassword(pem, 'Wrong0pass'), client: 7, uuid: 'u' },
    })
    expect(failed.body.msg).toBe('账号或密码错误')
    const keys = (await sql<{ key: string }>`select key from auth_throttle where key like 'loginAddress:%'`.execute(t.server.db)).rows
    expect(keys.map((r) => r.key)).toEqual(['loginAddress:198.51.100.7'])
  })

  it('refuses operator calls a balancer relayed, even from this host', async () => {
    const headers = { [OPS_TOKEN_HEADER]: t.ops.token, 'Content-Type': 'application/json' }
    const direct = await fetch(`${t.server.url}/__ops/connections`, { headers })
    expect(direct.status).toBe(200)
    const relayed = await fetch(`${t.server.url}/__ops/connections`, { headers: { ...headers, 'X-Forwarded-For': '127.0.0.1' } })
    expect(relayed.status).toBe(404)
  })
})
