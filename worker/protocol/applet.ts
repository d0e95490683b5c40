// The WeChat mini program's login calls (§7): `getAppletsKey` exchanges the code of wx.login for the user's openId
// (the session key stays on the server), `getAppletsData` decrypts the phone number the user allowed the mini program
// to share (AES-128-CBC under that session key, WeChat's scheme), `applet/login` signs in the account of that verified
// phone (creating it, like an SMS quick login). Only the mini program calls these: a browser has no wx.login, and the
// in-app WeChat browser is sent to the cover page, so the tab never offers them (README Decisions).
import * as Schema from 'effect/Schema'
import { endpoint } from './endpoint.ts'
import { CipherText, CodeText, TokenText, UuidText } from './limits.ts'
import { InviteCode, LoginResponse } from './session.ts'

export const AppletKeyRequest = Schema.Struct({ code: TokenText })
/**
 * `loginTicket`: a one-time secret of this code exchange (issue 22 finding 3). The openId names the WeChat user and is
 * no credential: the phone step and the login take the ticket, and the login spends it.
 */
export const AppletKey = Schema.Struct({ openId: Schema.String, loginTicket: Schema.String })
export const AppletDataRequest = Schema.Struct({ openId: TokenText, loginTicket: TokenText, encryptedData: CipherText, iv: CodeText })
export const AppletPhone = Schema.Struct({ phone: Schema.String })
export const AppletLoginRequest = Schema.Struct({ openId: TokenText, loginTicket: TokenText, uuid: UuidText, inviteCode: Schema.optional(InviteCode) })

export const appletEndpoints = {
  getAppletsKey: endpoint({
    name: 'getAppletsKey', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v4/applets/getAppletsKey',
    request: AppletKeyRequest, response: AppletKey,
  }),
  getAppletsData: endpoint({
    name: 'getAppletsData', method: 'POST', repeatable: true, path: '/api/user/v4/applets/getAppletsData',
    request: AppletDataRequest, response: AppletPhone,
  }),
  appletLogin: endpoint({
    name: 'appletLogin', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/clientLogin/applet/login',
    request: AppletLoginRequest, response: LoginResponse,
  }),
} as const
