// Session area: public key, password and SMS login, registration, password reset, phone binding, personal info,
// visit log, user agreement (product-spec §7 "Auth/user", api-notes "Login and account").
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { AccountText, CipherText, CodeText, Id, TokenText, UuidText } from './limits.ts'
import { HEADER_VISIT_LOG_VERSIONS } from './constants.ts'
import { INVITE_CODE_MAX } from './validators.ts'

/** dataInfo: the user object kept in storage (§3). */
export const UserInfo = Schema.Struct({
  username: Schema.String,
  userType: Schema.Number,
  phone: Schema.String,
})
export type UserInfo = typeof UserInfo.Type

export const LoginRequest = Schema.Struct({
  phone: AccountText,
  /** base64 RSA PKCS#1 v1.5 of the lowercase hex MD5 of the password. */
  password: CipherText,
  client: Schema.Literal(7),
  uuid: UuidText,
  invitationUserName: Schema.optional(AccountText),
})

export const LoginResponse = Schema.Struct({
  token: Schema.String,
  username: Schema.String,
  userType: Schema.Number,
  phone: Schema.String,
})
export type LoginResponse = typeof LoginResponse.Type

export const PersonalInfo = Schema.Struct({
  username: Schema.String,
  userType: Schema.Number,
  phone: Schema.String,
  nickName: Schema.optional(Schema.String),
})

export const VisitLogRequest = Schema.Struct({
  uuid: UuidText,
  operationType: Schema.Literals([1, 2]),
  phoneNumber: Schema.optional(AccountText),
  id: Schema.optional(Id),
})

/** What an SMS code is for (`authorizationType` of the send call; ours): the server checks the phone accordingly. */
export const SmsPurpose = { register: 1, quickLogin: 2, forgotPassword: 3, bindPhone: 4 } as const
export type SmsPurpose = (typeof SmsPurpose)[keyof typeof SmsPurpose]

export const InviteCode = Schema.String.check(Schema.isMaxLength(INVITE_CODE_MAX))

export const SendSmsRequest = Schema.Struct({
  type: Schema.Literal('common'),
  authorizationType: Schema.Literals([SmsPurpose.register, SmsPurpose.quickLogin, SmsPurpose.forgotPassword, SmsPurpose.bindPhone]),
  phone: AccountText,
})

export const QuickLoginRequest = Schema.Struct({
  code: CodeText,
  inviteCode: Schema.optional(InviteCode),
  phone: AccountText,
  uuid: UuidText,
})

export const RegisterRequest = Schema.Struct({
  phone: AccountText,
  code: CodeText,
  /** encrypted like the login password. */
  password: CipherText,
  inviteCode: Schema.optional(InviteCode),
  uuid: UuidText,
})

export const PasswordBackRequest = Schema.Struct({
  phone: AccountText,
  code: CodeText,
  /** encrypted like the login password. */
  password: CipherText,
})

/**
 * `phone` and `code` (the new phone's SMS code) as the older client sends them; an account that already has a bound
 * phone also proves it is its owner (issue 22 finding 2): `ticket` from checkPhoneCode (an SMS code sent to the old
 * phone), or `password` (the login password, encrypted like the login's).
 */
/** updateUserPhone's refusals that ask for the old phone's proof again (a new checkPhoneCode ticket). */
export const OwnerProofStatus = { required: 1022, expired: 1023 } as const

export const UpdateUserPhoneRequest = Schema.Struct({
  phone: AccountText,
  code: CodeText,
  ticket: Schema.optional(TokenText),
  password: Schema.optional(CipherText),
})

/** The user agreement: plain text, paragraphs separated by new lines. */
export const Agreement = Schema.Struct({ title: Schema.String, content: Schema.String })
export type Agreement = typeof Agreement.Type

export const sessionEndpoints = {
  getPbKey: endpoint({
    name: 'getPbKey', method: 'POST', repeatable: true, path: '/api/user/v1/client/login/getPbKey',
    request: NoPayload, response: Schema.String,
  }),
  login: endpoint({
    name: 'login', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v1/client/login',
    request: LoginRequest, response: LoginResponse,
  }),
  personalInfo: endpoint({
    name: 'personalInfo', method: 'GET', repeatable: true, path: '/api/user/v1/client/personalInfo',
    request: NoPayload, response: PersonalInfo,
  }),
  operationVisitDetailed: endpoint({
    name: 'operationVisitDetailed', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/visitDetailed/operationVisitDetailed',
    request: VisitLogRequest, response: Schema.Number,
    silentFailure: true, extraHeaders: { versions: HEADER_VISIT_LOG_VERSIONS },
  }),
  sendSmsCode: endpoint({
    name: 'sendSmsCode', method: 'POST', repeatable: false, idempotent: true, path: '/api/message/v5/phone/send',
    request: SendSmsRequest, response: Schema.Null,
  }),
  quickLogin: endpoint({
    name: 'quickLogin', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/clientLogin/applet/quickLogin',
    request: QuickLoginRequest, response: LoginResponse,
  }),
  register: endpoint({
    name: 'register', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v5/client/register/encryptionPassWord',
    request: RegisterRequest, response: LoginResponse,
  }),
  passwordBackNew: endpoint({
    name: 'passwordBackNew', method: 'PUT', repeatable: false, idempotent: true, path: '/api/user/v5/user/passwordBackNew',
    request: PasswordBackRequest, response: Schema.Null,
  }),
  updateUserPhone: endpoint({
    name: 'updateUserPhone', method: 'POST', repeatable: false, idempotent: true, path: '/api/user/v1/client/personalInfo/updateUserPhone',
    request: UpdateUserPhoneRequest, response: Schema.Null,
  }),
  agreementContent: endpoint({
    name: 'agreementContent', method: 'GET', repeatable: true, path: '/api/public/v4/agreement/content',
    request: NoPayload, response: Agreement,
  }),
} as const
