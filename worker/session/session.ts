// Login (password, SMS code, registration), the user's logout, the session refresh and the visit log (§4, api-notes
// "Login and account", decisions.md "Several tabs, one session"): the session is the stored token.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { CallFailed } from '../http/call-failed.ts'
import { coreCall, HttpPipeline, toCallResult, type CallContext, type Data } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import type { CallResult, CodeLoginInput, LoginInput, ResetPasswordInput } from '../protocol/commands.ts'
import type { UserInfo } from '../protocol/session.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { Background } from '../runtime/background.ts'
import { getString, Storage } from '../storage/storage.ts'
import { core } from '../texts.ts'
import { ensureDeviceStatId } from './device-stat-id.ts'
import { ExitAction } from './exit-action.ts'
import { SessionState } from './session-state.ts'

export interface SessionShape {
  readonly login: (input: LoginInput, ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
  readonly loginWithCode: (input: CodeLoginInput, ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
  /** personalInfo -> dataInfo and phone -> SessionChanged, so every tab's guard sees the account as it is now. */
  readonly refresh: (ctx: CallContext) => Effect.Effect<CallResult<UserInfo>>
  /** Forgotten password: the new password encrypted here, like the login's, then passwordBackNew; no session changes. */
  readonly resetPassword: (input: ResetPasswordInput, ctx: CallContext) => Effect.Effect<CallResult<Data<'passwordBackNew'>>>
  readonly logout: (ctx: CallContext) => Effect.Effect<void>
  /** visit log operationType 1 (a launch or a login); its data is the loginId sent back on logout. Never waited on. */
  readonly logVisit: (ctx: CallContext) => Effect.Effect<void>
}

const serverError = () => new CallFailed({ status: 0, msg: core.serverError, silent: false })

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

      const logVisit = (ctx: CallContext) =>
        Effect.gen(function* () {
          const { token, epoch } = state.current()
          if (token === null) return
          const uuid = yield* ensureDeviceStatId(storage)
          const phone = yield* getString(storage, StorageKey.phone)
          const loginId = yield* http.request('operationVisitDetailed', {
            uuid, operationType: 1, ...(phone !== null ? { phoneNumber: phone } : {}),
          }, ctx)
          // the loginId of a session that has ended meanwhile would re-create a cleared key
          if (typeof loginId === 'number' && state.current().epoch === epoch) yield* storage.set(StorageKey.loginId, loginId)
        }).pipe(Effect.ignore)

      /** visit log operationType 2 with the session's own token, then the exit (unless something already ended it). */
      const endSession = (ctx: CallContext, redirect: boolean) =>
        Effect.gen(function* () {
          const { token, epoch } = state.current()
          const uuid = yield* ensureDeviceStatId(storage)
          const loginId = Number(yield* getString(storage, StorageKey.loginId))
          const visit = http.request('operationVisitDetailed', {
            uuid, operationType: 2, ...(Number.isFinite(loginId) && loginId !== 0 ? { id: loginId } : {}),
          }, { ...ctx, token }).pipe(Effect.ignore)
          if (redirect) {
            yield* visit
            // a 401 on the visit log already ran the exit for this session: not twice
            yield* exit.runOnce(epoch, { redirect: true })
          } else {
            // a login as somebody else must not wait on the old session's visit log
            background.run(visit)
            yield* exit.runOnce(epoch, { redirect: false })
          }
        })

      /** The public key, then the password as the backend expects it; a key that does not parse is a server error. */
      const encrypted = (password: string, ctx: CallContext) =>
        Effect.gen(function* () {
          const encryptor = loadPasswordEncryptor() // on its way while the key is
          const key = yield* http.request('getPbKey', {}, ctx)
          const encrypt = yield* Effect.promise(() => encryptor)
          const value = typeof key === 'string' && encrypt !== null ? safeEncrypt(encrypt, key, password) : null
          if (value === null) return yield* serverError()
          return value
        })

      /**
       * Every way in ends here. Logged in as somebody already: that session ends first, as a logout (decisions.md).
       * Then token and user are stored, every tab is told, and the visit log, device list and meal types follow
       * without the login waiting on them; the push socket opens last.
       */
      const establish = (reply: Data<'login'>, ctx: CallContext) =>
        Effect.gen(function* () {
          if (reply === false) return yield* serverError()
          // the calls the sign-in sets off are that tab's (its channelCode), their failures every tab's
          const signedInFrom: CallContext = { ...coreCall, channelCode: ctx.channelCode }
          if (state.current().token !== null) yield* endSession(signedInFrom, false)
          const user: UserInfo = { username: reply.username, userType: reply.userType, phone: reply.phone }
          yield* storage.set(StorageKey.token, reply.token)
          yield* storage.set(StorageKey.dataInfo, user)
          yield* storage.set(StorageKey.phone, user.phone)
          state.set(reply.token, user.username, false)
          hub.publish({ _tag: 'SessionChanged', user, phone: user.phone })
          background.run(logVisit(signedInFrom))
          background.run(devices.refresh(signedInFrom))
          background.run(meals.load(signedInFrom))
          state.announce()
          return user
        })

      /**
       * A sign-in while a session exists is a switch the user asked for: isSwitchExit (§3, §4) is set from before the
       * sign-in's request until it ends, so a forcedOfflineMsg the switch itself causes (the server ending this
       * browser's old session of the account, 6013) is not shown as if the account had been taken elsewhere; the
       * previous session ends as a logout either way (establish). The exit clears the key with the rest of storage.
       */
      const switching = <A>(signIn: Effect.Effect<CallResult<A>>): Effect.Effect<CallResult<A>> =>
        Effect.suspend(() => {
          if (state.current().token === null) return signIn
          return storage.set(StorageKey.isSwitchExit, '1').pipe(
            Effect.andThen(signIn),
            Effect.ensuring(storage.remove(StorageKey.isSwitchExit)),
          )
        })

      const login = (input: LoginInput, ctx: CallContext) =>
        switching(toCallResult(Effect.gen(function* () {
          const password = yield* encrypted(input.password, ctx)
          const uuid = yield* ensureDeviceStatId(storage)
          const invitation = input.invitationUserName ?? null
          return yield* establish(yield* http.request('login', {
            phone: input.phone, password, client: 7, uuid,
            ...(invitation !== null && invitation !== '' ? { invitationUserName: invitation } : {}),
          }, ctx), ctx)
        })))

      const loginWithCode = (input: CodeLoginInput, ctx: CallContext) =>
        switching(toCallResult(Effect.gen(function* () {
          const uuid = yield* ensureDeviceStatId(storage)
          const invite = input.inviteCode ?? ''
          const base = { phone: input.phone, code: input.code, uuid, ...(invite !== '' ? { inviteCode: invite } : {}) }
          if (input.password === undefined || input.password === null) {
            return yield* establish(yield* http.request('quickLogin', base, ctx), ctx)
          }
          const password = yield* encrypted(input.password, ctx)
          return yield* establish(yield* http.request('register', { ...base, password }, ctx), ctx)
        })))

      const refresh = (ctx: CallContext) =>
        toCallResult(Effect.gen(function* () {
          const { token, epoch } = state.current()
          if (token === null) return yield* serverError()
          const info = yield* http.request('personalInfo', {}, ctx)
          if (info === false) return yield* serverError()
          const user: UserInfo = { username: info.username, userType: info.userType, phone: info.phone }
          // the pipeline already dropped an answer of an ended session; nothing else may have ended it since
          if (state.current().epoch !== epoch) return yield* new CallFailed({ status: 0, msg: '', silent: true })
          yield* storage.set(StorageKey.dataInfo, user)
          yield* storage.set(StorageKey.phone, user.phone)
          hub.publish({ _tag: 'SessionChanged', user, phone: user.phone }, epoch)
          return user
        }))

      const resetPassword = (input: ResetPasswordInput, ctx: CallContext) =>
        toCallResult(Effect.gen(function* () {
          const password = yield* encrypted(input.password, ctx)
          return yield* http.request('passwordBackNew', { phone: input.phone, code: input.code, password }, ctx)
        }))

      return { login, loginWithCode, refresh, resetPassword, logout: (ctx) => endSession(ctx, true), logVisit }
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
