// The session endpoints and the generic route rules: RSA+MD5 login, validation envelopes, 401 without a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { api, encryptPassword, login, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let base: string

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
}, 60_000)
afterAll(() => t?.stop())

describe('login', () => {
  it('getPbKey hands out an RSA public key as PEM', async () => {
    const { body } = await api<string>(base, 'POST', '/api/user/v1/client/login/getPbKey')
    expect(body.status).toBe(0)
    expect(body.data).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/)
  })

  it('the demo user logs in with the RSA-encrypted MD5 of the password and gets a token', async () => {
    const { http, body } = await login(base, '13800138000', 'Demo@2026')
    expect(http).toBe(200)
    expect(body.status).toBe(0)
    expect(body.success).toBe(true)
    expect(body.data).toMatchObject({ username: 'demo', userType: 1, phone: '13800138000' })
    expect(body.data.token).toMatch(/^[0-9a-f]{32,}$/)
    const info = await api(base, 'GET', '/api/user/v1/client/personalInfo', { token: body.data.token })
    expect(info.body.data).toMatchObject({ username: 'demo', phone: '13800138000', userType: 1 })
  })

  it('the user who must bind a phone logs in with userType 2', async () => {
    const { body } = await login(base, '13900139000', 'Demo@2026')
    expect(body.data).toMatchObject({ userType: 2, phone: '13900139000' })
  })

  it('a wrong password fails with a non-zero status and a Chinese message', async () => {
    const { http, body } = await login(base, '13800138000', 'Demo@2025')
    expect(http).toBe(200)
    expect(body.status).not.toBe(0)
    expect(body.success).toBe(false)
    expect(body.msg).toBe('账号或密码错误')
    expect(body.data).toBeNull()
  })

  it('an unknown account fails exactly like a wrong password', async () => {
    const { body } = await login(base, '13111111111', 'Demo@2026')
    expect(body.status).not.toBe(0)
    expect(body.msg).toBe('账号或密码错误')
  })

  it('a password that is not a ciphertext of our key is refused', async () => {
    const { body } = await api(base, 'POST', '/api/user/v1/client/login', {
      body: { phone: '13800138000', password: 'bm90LWEtY2lwaGVydGV4dA==', client: 7, uuid: 'u' },
    })
    expect(body.msg).toBe('账号或密码错误')
  })

  it('the invitation username given at login is stored as the inviter', async () => {
    const { body } = await login(base, '13700137000', 'Demo@2026', { invitationUserName: 'demo' })
    expect(body.status).toBe(0)
    const row = await t.server.db.selectFrom('users').select('inviter').where('phone', '=', '13700137000').executeTakeFirstOrThrow()
    expect(row.inviter).toBe('demo')
  })
})

describe('request validation', () => {
  it('a body missing a field gets a non-zero status, a Chinese message naming the field and no stack', async () => {
    const key = await api<string>(base, 'POST', '/api/user/v1/client/login/getPbKey')
    const { http, body, text } = await api(base, 'POST', '/api/user/v1/client/login', {
      body: { password: encryptPassword(key.body.data, 'Demo@2026'), client: 7, uuid: 'u' },
    })
    expect(http).toBe(200)
    expect(body.status).toBe(1001)
    expect(body.success).toBe(false)
    expect(body.msg).toContain('phone')
    expect(body.msg).toMatch(/[\u4e00-\u9fff]/)
    expect(body.data).toBeNull()
    expect(text).not.toMatch(/at .*\.(ts|js):\d+/)
  })

  it('a field of the wrong type is named in the message', async () => {
    const { body } = await api(base, 'POST', '/api/user/v1/client/login', { body: { phone: 13800138000, password: 'x', client: 7, uuid: 'u' } })
    expect(body.status).toBe(1001)
    expect(body.msg).toBe('参数错误：参数 phone 应为字符串')
  })

  it('a body that is not JSON gets a Chinese message and no stack', async () => {
    const { http, body, text } = await api(base, 'POST', '/api/user/v1/client/login', { rawBody: '{"phone": ' })
    expect(http).toBe(200)
    expect(body.status).toBe(1001)
    expect(body.msg).toBe('请求体不是有效的JSON')
    expect(text).not.toContain('SyntaxError')
  })

  it('GET query values are coerced to the numbers the request schema expects', async () => {
    const { token } = (await login(base, '13800138000', 'Demo@2026')).body.data
    const ok = await api(base, 'GET', '/api/resources/api/usercard/reboot?userCardId=880001', { token })
    expect(ok.body.status).toBe(0)
    const bad = await api(base, 'GET', '/api/resources/api/usercard/reboot?userCardId=abc', { token })
    expect(bad.body.status).toBe(1001)
    expect(bad.body.msg).toContain('userCardId')
  })

  it('an unknown path answers 404 with a Chinese envelope', async () => {
    const { http, body } = await api(base, 'GET', '/api/nothing/here')
    expect(http).toBe(404)
    expect(body.msg).toBe('接口不存在')
  })
})

describe('authentication', () => {
  it('a protected endpoint without a token answers HTTP 401', async () => {
    const { http, body } = await api(base, 'GET', '/api/resources/v6/client/device/info/getDeviceList')
    expect(http).toBe(401)
    expect(body.status).toBe(401)
    expect(body.msg).toBe('登录失效，请重新登录！')
  })

  it('a protected endpoint with an unknown token answers HTTP 401', async () => {
    const { http } = await api(base, 'POST', '/api/pay/v2/meal/info/tab/list', { token: 'not-a-token' })
    expect(http).toBe(401)
  })

  it('a "Bearer" prefixed token is not accepted: the header carries the raw token', async () => {
    const { token } = (await login(base, '13800138000', 'Demo@2026')).body.data
    const { http } = await api(base, 'GET', '/api/user/v1/client/personalInfo', { token: `Bearer ${token}` })
    expect(http).toBe(401)
  })
})

describe('visit log', () => {
  it('operationType 1 stores a visit and returns its id; operationType 2 closes it', async () => {
    const { token } = (await login(base, '13800138000', 'Demo@2026')).body.data
    const open = await api<number>(base, 'POST', '/api/user/v5/visitDetailed/operationVisitDetailed', {
      token, body: { uuid: 'visit-uuid', operationType: 1, phoneNumber: '13800138000' },
    })
    expect(open.body.status).toBe(0)
    expect(typeof open.body.data).toBe('number')
    const close = await api<number>(base, 'POST', '/api/user/v5/visitDetailed/operationVisitDetailed', {
      token, body: { uuid: 'visit-uuid', operationType: 2, id: open.body.data },
    })
    expect(close.body.status).toBe(0)
    const row = await t.server.db.selectFrom('visits').selectAll().where('id', '=', close.body.data).executeTakeFirstOrThrow()
    expect(row.login_id).toBe(open.body.data)
    expect(row.operation_type).toBe(2)
  })

  it('an operationType other than 1 or 2 is refused', async () => {
    const { body } = await api(base, 'POST', '/api/user/v5/visitDetailed/operationVisitDetailed', { body: { uuid: 'u', operationType: 3 } })
    expect(body.status).toBe(1001)
    expect(body.msg).toContain('operationType')
  })
})

describe('system and packages', () => {
  it('the system configuration and the maintenance message are public', async () => {
    const config = await api<{ systemName: string }>(base, 'GET', '/api/public/v1/system/config')
    expect(config.body.data.systemName).toBe('星云')
    const maintenance = await api(base, 'GET', '/api/public/v1/room/getRoomMaintenanceMsg')
    expect(maintenance.body).toMatchObject({ status: 0, data: { maintenanceSwitch: false } })
  })

  it('meal types list several Android versions per phone type, with both special preview values', async () => {
    const { token } = (await login(base, '13800138000', 'Demo@2026')).body.data
    const { body } = await api<Array<{ phoneType: string; androidVersion: string; previewUrl: string }>>(base, 'POST', '/api/pay/v2/meal/info/tab/list', { token })
    expect(body.status).toBe(0)
    const versions = new Map<string, string[]>()
    for (const m of body.data) versions.set(m.phoneType, [...(versions.get(m.phoneType) ?? []), m.androidVersion])
    expect(versions.size).toBeGreaterThanOrEqual(2)
    for (const list of versions.values()) expect(list.length).toBeGreaterThan(1)
    expect(new Set(body.data.map((m) => m.previewUrl))).toEqual(new Set(['default', 'defaultPhonePreviewUrl']))
    const meals = await api<{ mealList: unknown[] }>(base, 'GET', '/api/pay/pay/phoneMenuRule/getMealList', { token })
    expect(meals.body.data.mealList.length).toBeGreaterThan(0)
  })

  it('every response carries the cross-origin isolation headers', async () => {
    const response = await fetch(`${base}/api/public/v1/system/config`)
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
  })
})

describe('catalogue coverage', () => {
  it('every endpoint of the catalogue is served (none answers 接口不存在)', async () => {
    const missing: string[] = []
    for (const e of Object.values(catalogue)) {
      const response = await fetch(base + e.path, { method: e.method })
      const body = await response.json()
      if (response.status === 404 && body.msg === '接口不存在') missing.push(`${e.name} ${e.method} ${e.path}`)
    }
    expect(missing).toEqual([])
  })
})
