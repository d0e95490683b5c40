// Session area: public key, password login, personal info, visit log (product-spec §7 "Auth/user", api-notes "Login and account").
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { HEADER_VISIT_LOG_VERSIONS } from './constants.ts'

/** dataInfo: the user object kept in storage (§3). */
export const UserInfo = Schema.Struct({
  username: Schema.String,
  userType: Schema.Number,
  phone: Schema.String,
})
export type UserInfo = typeof UserInfo.Type

export const LoginRequest = Schema.Struct({
  phone: Schema.String,
  /** base64 RSA PKCS#1 v1.5 of the lowercase hex MD5 of the password. */
  password: Schema.String,
  client: Schema.Literal(7),
  uuid: Schema.String,
  invitationUserName: Schema.optional(Schema.String),
})

export const LoginResponse = Schema.Struct({
  token: Schema.String,
  username: Schema.String,
  userType: Schema.Number,
  phone: Schema.String,
})

export const PersonalInfo = Schema.Struct({
  username: Schema.String,
  userType: Schema.Number,
  phone: Schema.String,
  nickName: Schema.optional(Schema.String),
})

export const VisitLogRequest = Schema.Struct({
  uuid: Schema.String,
  operationType: Schema.Literals([1, 2]),
  phoneNumber: Schema.optional(Schema.String),
  id: Schema.optional(Schema.Number),
})

export const sessionEndpoints = {
  getPbKey: endpoint({
    name: 'getPbKey', method: 'POST', path: '/api/user/v1/client/login/getPbKey',
    request: NoPayload, response: Schema.String,
  }),
  login: endpoint({
    name: 'login', method: 'POST', path: '/api/user/v1/client/login',
    request: LoginRequest, response: LoginResponse,
  }),
  personalInfo: endpoint({
    name: 'personalInfo', method: 'GET', path: '/api/user/v1/client/personalInfo',
    request: NoPayload, response: PersonalInfo,
  }),
  operationVisitDetailed: endpoint({
    name: 'operationVisitDetailed', method: 'POST', path: '/api/user/v5/visitDetailed/operationVisitDetailed',
    request: VisitLogRequest, response: Schema.Number,
    silentFailure: true, extraHeaders: { versions: HEADER_VISIT_LOG_VERSIONS },
  }),
} as const
