// The password registration switch: reported to everyone, and enforced by the server while off.
import { describe, expect, it } from 'vitest'
import { opsSwitch } from '../../../server/ops.ts'
import { REGISTER_CLOSED } from '../../../worker/protocol/register-switch.ts'
import { api, encryptPassword, useTestServer } from './helpers.ts'

const t = useTestServer()

describe('password registration switch', () => {
  it('is on by default, and while off the server refuses a registration before looking at it', async () => {
    expect((await api<boolean>(t.base, 'GET', '/api/user/v5/client/register/getPasswordRegisterSwitch')).body.data).toBe(true)
    await opsSwitch(t.ops, 'register', false)
    expect((await api<boolean>(t.base, 'GET', '/api/user/v5/client/register/getPasswordRegisterSwitch')).body.data).toBe(false)
    const key = (await api<string>(t.base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
    const refused = await api(t.base, 'POST', '/api/user/v5/client/register/encryptionPassWord', {
      body: { phone: '13512340000', code: '123456', password: encryptPassword(key, 'abc123'), uuid: 'u' },
    })
    expect(refused.body).toMatchObject({ success: false, msg: REGISTER_CLOSED })
    await opsSwitch(t.ops, 'register', true)
    const open = await api(t.base, 'POST', '/api/user/v5/client/register/encryptionPassWord', {
      body: { phone: '13512340000', code: '123456', password: encryptPassword(key, 'abc123'), uuid: 'u' },
    })
    // past the switch: now it is the SMS code that is wrong
    expect(open.body.msg).not.toBe(REGISTER_CLOSED)
  })
})
