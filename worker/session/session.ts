// Login, the user's logout, and the visit log (§4, api-notes "Login and account"): the session is the stored token.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline, type CallContext } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import { catalogue } from '../protocol/catalogue.ts'
import type { CallResult, LoginInput } from '../protocol/commands.ts'
import type { UserInfo } from '../protocol/session.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { Background } from '../runtime/background.ts'
import { getString, Storage } from '../storage/storage.ts'
import { Texts } from '../texts.ts'
import { ensureDeviceStatId } from './device-stat-id.ts'
import { ExitAction } from './exit-action.ts'
import { encryptPassword } from './password.ts'
import { SessionState } from './session-state.ts'

export interface SessionShape {
  readonly login: (input: LoginInput, ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
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

      const login = (input: LoginInput, ctx: CallContext) =>
        Effect.gen(function* () {
          const key = yield* http.call(catalogue.getPbKey, {}, ctx)
          if (!key.ok) return key
          const password = typeof key.data === 'string' ? safeEncrypt(key.data, input.password) : null
          if (password === null) return { ok: false, status: 0, msg: Texts.serverError, silent: false } as const
          const uuid = yield* ensureDeviceStatId(storage)
          const invitation = input.invitationUserName ?? null
          const result = yield* http.call(catalogue.login, {
            phone: input.phone, password, client: 7, uuid,
            ...(invitation !== null && invitation !== '' ? { invitationUserName: invitation } : {}),
          }, ctx)
          if (!result.ok) return result
          if (result.data === false) return { ok: false, status: 0, msg: Texts.serverError, silent: false } as const
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

      const logout = (ctx: CallContext) =>
        Effect.gen(function* () {
          const uuid = yield* ensureDeviceStatId(storage)
          const loginId = Number(yield* getString(storage, StorageKey.loginId))
          yield* http.call(catalogue.operationVisitDetailed, {
            uuid, operationType: 2, ...(Number.isFinite(loginId) && loginId !== 0 ? { id: loginId } : {}),
          }, ctx)
          yield* exit.run({ redirect: true })
        })

      return { login, logout, logVisit }
    }),
  )
}

const safeEncrypt = (publicKey: string, password: string): string | null => {
  try {
    return encryptPassword(publicKey, password)
  } catch {
    return null
  }
}
