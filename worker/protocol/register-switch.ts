// Whether password registration is offered (§7 getPasswordRegisterSwitch); off, new users come in through SMS quick
// login, which creates the account.
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { SwitchFlag } from './switch-flag.ts'

export const REGISTER_CLOSED = '暂未开放密码注册，请使用验证码登录（新手机号将自动注册）'

export const registerSwitchEndpoints = {
  getPasswordRegisterSwitch: endpoint({
    name: 'getPasswordRegisterSwitch', method: 'GET', repeatable: true, path: '/api/user/v5/client/register/getPasswordRegisterSwitch',
    request: NoPayload, response: SwitchFlag,
  }),
} as const
