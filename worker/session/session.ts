// Login (password, SMS code, registration), the user's logout, the session refresh and the visit log (§4, api-notes
// "Login and account"): the session is the stored token.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline, type CallContext } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import { catalogue } from '../protocol/catalogue.ts'
import type { CallResult, CodeLoginInput, LoginInput } from '../protocol/commands.ts'
import type { LoginResponse, UserInfo } from '../protocol/session.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { Background } from '../runtime/background.ts'
import { getString, Storage } from '../storage/storage.ts'
import { Texts } from '../texts.ts'
import { ensureDeviceStatId } from './device-stat-id.ts'
import { ExitAction } from './exit-action.ts'
import { SessionState } from './session-state.ts'

export interface SessionShape {
  readonly login: (input: LoginInput, ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
  readonly loginWithCode: (input: CodeLoginInput, ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
  /** personalInfo -> dataInfo and phone -> SessionChanged, so every tab's guard sees the account as it is now. */
  readonly refresh: (ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
  readonly logout: (ctx: CallContext) => Effect.Effect<void>
  /** visit log operationType 1; its data is the loginId sent back on logout. */
  readonly logVisit: (phone: string | null, ctx: CallContext) => Effect.Effect<void>
}

export class Session extends Context.Service<Session, SessionShape>()('cloud-phone/Session') {
  static readonly layer = Layer.effect(
    Session,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const storage = yield* Storage
      const state = yield* SessionState
      const hub = yield* EventHub
      const exit = yield* ExitAction
      const devices = yield* DeviceList
      const meals = yield* MealTypes
      const background = yield* Background

      const logVisit = (phone: string | null, ctx: CallContext) =>
        Effect.gen(function* () {
          const uuid = yield* ensureDeviceStatId(storage)
          const result = yield* http.call(catalogue.operationVisitDetailed, {
            uuid, operationType: 1, ...(phone !== null ? { phoneNumber: phone } : {}),
          }, ctx)
          if (result.ok && typeof result.data === 'number') yield* storage.set(StorageKey.loginId, result.data)
        })

      const failed = { ok: false, status: 0, msg: Texts.serverError, silent: false } as const

      /** The public key, then the password as the backend expects it; a key that does not parse is a server error. */
      const encrypted = (password: string, ctx: CallContext) =>
        Effect.gen(function* () {
          const encryptor = loadPasswordEncryptor() // on its way while the key is
          const key = yield* http.call(catalogue.getPbKey, {}, ctx)
          if (!key.ok) return key
          const encrypt = yield* Effect.promise(() => encryptor)
          const value = typeof key.data === 'string' && encrypt !== null ? safeEncrypt(encrypt, key.data, password) : null
          return value === null ? failed : ({ ok: true, data: value } as const)
        })

      /** Every way in ends here: store token and user, visit log 1, SessionChanged, device list, meals, then push. */
      const establish = (result: CallResult<LoginResponse | false>, ctx: CallContext) =>
        Effect.gen(function* () {
          if (!result.ok) return result
          if (result.data === false) return failed
          const user: UserInfo = { username: result.data.username, userType: result.data.userType, phone: result.data.phone }
          yield* storage.set(StorageKey.token, result.data.token)
          yield* storage.set(StorageKey.dataInfo, user)
          yield* storage.set(StorageKey.phone, user.phone)
          state.set(result.data.token, user.username, false)
          yield* logVisit(user.phone, ctx)
          yield* hub.publish({ _tag: 'SessionChanged', loggedIn: true, user, phone: user.phone })
          background.run(devices.refresh(coreCall).pipe(Effect.asVoid))
          background.run(meals.load)
          state.announce()
          return { ok: true, data: user } as const
        })

      const login = (input: LoginInput, ctx: CallContext) =>
        Effect.gen(function* () {
          const password = yield* encrypted(input.password, ctx)
          if (!password.ok) return password
          const uuid = yield* ensureDeviceStatId(storage)
          const invitation = input.invitationUserName ?? null
          return yield* establish(yield* http.call(catalogue.login, {
            phone: input.phone, password: password.data, client: 7, uuid,
            ...(invitation !== null && invitation !== '' ? { invitationUserName: invitation } : {}),
          }, ctx), ctx)
        })

      const loginWithCode = (input: CodeLoginInput, ctx: CallContext) =>
        Effect.gen(function* () {
          const uuid = yield* ensureDeviceStatId(storage)
          const invite = input.inviteCode ?? ''
          const base = { phone: input.phone, code: input.code, uuid, ...(invite !== '' ? { inviteCode: invite } : {}) }
          if (input.password === undefined || input.password === null) {
            return yield* establish(yield* http.call(catalogue.quickLogin, base, ctx), ctx)
          }
          const password = yield* encrypted(input.password, ctx)
          if (!password.ok) return password
          return yield* establish(yield* http.call(catalogue.register, { ...base, password: password.data }, ctx), ctx)
        })

      const refresh = (ctx: CallContext) =>
        Effect.gen(function* () {
          const { token, epoch } = state.current()
          if (token === null) return failed
          const result = yield* http.call(catalogue.personalInfo, {}, ctx)
          if (!result.ok) return result
          if (result.data === false) return failed
          // an exit or another login while the call was out: this answer belongs to a session that is gone
          if (state.current().epoch !== epoch) return failed
          const user: UserInfo = { username: result.data.username, userType: result.data.userType, phone: result.data.phone }
          yield* storage.set(StorageKey.dataInfo, user)
          yield* storage.set(StorageKey.phone, user.phone)
          yield* hub.publish({ _tag: 'SessionChanged', loggedIn: true, user, phone: user.phone })
          return { ok: true, data: user } as const
        })

      const logout = (ctx: CallContext) =>
        Effect.gen(function* () {
          const uuid = yield* ensureDeviceStatId(storage)
          const loginId = Number(yield* getString(storage, StorageKey.loginId))
          yield* http.call(catalogue.operationVisitDetailed, {
            uuid, operationType: 2, ...(Number.isFinite(loginId) && loginId !== 0 ? { id: loginId } : {}),
          }, ctx)
          yield* exit.run({ redirect: true })
        })

      return { login, loginWithCode, refresh, logout, logVisit }
    }),
  )
}

type PasswordEncryptor = typeof import('./password.ts').encryptPassword

/** The login crypto (MD5, RSA) is its own chunk, so a worker that never logs anyone in never fetches it. A chunk that
 * cannot be fetched (offline, or a deploy removed it under a running worker) resolves to null: a server error. */
const loadPasswordEncryptor = (): Promise<PasswordEncryptor | null> =>
  import('./password.ts').then((crypto) => crypto.encryptPassword, () => null)

const safeEncrypt = (encrypt: PasswordEncryptor, publicKey: string, password: string): string | null => {
  try {
    return encrypt(publicKey, password)
  } catch {
    return null
  }
}
