// The password registration switch: reported to everyone, and enforced by the server while off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opsSwitch } from '../../../server/ops.ts'
import { REGISTER_CLOSED } from '../../../worker/protocol/register-switch.ts'
import { api, encryptPassword, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
}, 60_000)
afterAll(() => t?.stop())

describe('password registration switch', () => {
  it('is on by default, and while off the server refuses a registration before looking at it', async () => {
    expect((await api<boolean>(base, 'GET', '/api/user/v5/client/register/getPasswordRegisterSwitch')).body.data).toBe(true)
    await opsSwitch(t.ops, 'register', false)
    expect((await api<boolean>(base, 'GET', '/api/user/v5/client/register/getPasswordRegisterSwitch')).body.data).toBe(false)
    const key = (await api<string>(base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
    const refused = await api(base, 'POST', '/api/user/v5/client/register/encryptionPassWord', {
      body: { phone: '13512340000', code: '123456', password: encryptPassword(key, 'abc123'), uuid: 'u' },
    })
    expect(refused.body).toMatchObject({ success: false, msg: REGISTER_CLOSED })
    await opsSwitch(t.ops, 'register', true)
    const open = await api(base, 'POST', '/api/user/v5/client/register/encryptionPassWord', {
      body: { phone: '13512340000', code: '123456', password: encryptPassword(key, 'abc123'), uuid: 'u' },
    })
    // past the switch: now it is the SMS code that is wrong
    expect(open.body.msg).not.toBe(REGISTER_CLOSED)
  })
})
