// The one way an endpoint of the catalogue is served: read payload, authenticate, validate, run the handler, encode
// the response into the envelope; domain errors become non-zero envelopes with a Chinese msg, never a stack trace.
import type { Context } from 'hono'
import type { Kysely } from 'kysely'
import type { Endpoint } from '../../worker/protocol/endpoint.ts'
import { envelope } from '../../worker/protocol/envelope.ts'
import { IDEMPOTENCY_ABANDON_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, KEY_INVALID_MSG } from '../../worker/protocol/idempotency.ts'
import type { Database } from '../db/schema.ts'
import { runOnce, type StoredEnvelope } from './idempotency.ts'
import type { App, AppEnv, Auth, AuthedHandler, AuthUser, PublicHandler } from '../context.ts'
import { DomainError, Status } from './errors.ts'
import { readPayload } from './payload.ts'
import { decodeRequest, encodeResponse } from './validate.ts'
import { ELSEWHERE_MSG, ELSEWHERE_STATUS } from '../session/tokens.ts'

interface AppRouting {
  readonly auth: Auth
  readonly registered: Set<string>
  /** where keyed writes store their outcome (http/idempotency.ts); without it, keys are ignored (unit harnesses). */
  readonly db: Kysely<Database> | null
}

const routing = new WeakMap<App, AppRouting>()

/** Binds the authentication every route of `app` uses; call once before registering routes. */
export const bindRouting = (app: App, auth: Auth, db: Kysely<Database> | null = null): ReadonlySet<string> => {
  const registered = new Set<string>()
  routing.set(app, { auth, registered, db })
  return registered
}

const routingOf = (app: App): AppRouting => {
  const r = routing.get(app)
  if (!r) throw new Error('bindRouting(app, auth) must run before routes are registered')
  return r
}

export const UNAUTHORIZED_MSG = '登录失效，请重新登录！'

export const failure = (c: Context, status: number, msg: string, data: unknown = null, httpStatus: 200 | 401 | 404 | 500 = 200) =>
  c.json({ status, success: false, msg, data }, httpStatus)

const register = (
  app: App,
  endpoint: Endpoint,
  isPublic: boolean,
  handler: (input: { payload: any; user: AuthUser | null; c: Context<AppEnv> }) => unknown,
): void => {
  const { auth, registered, db } = routingOf(app)
  if (registered.has(endpoint.name)) throw new Error(`endpoint ${endpoint.name} registered twice`)
  registered.add(endpoint.name)
  app.on(endpoint.method, endpoint.path, async (c) => {
    const token = c.req.header('Authorization')
    const user = await auth.userFromToken(token)
    if (!user && !isPublic) {
      // a session another login ended (tokens.ts MAX_SESSIONS_PER_ACCOUNT): §8's 6013, 账号已在别处登录！
      if (token && (await auth.endedElsewhere?.(token))) return failure(c, ELSEWHERE_STATUS, ELSEWHERE_MSG)
      return failure(c, 401, UNAUTHORIZED_MSG, null, 401)
    }
    c.set('user', user)
    const handle = async (): Promise<StoredEnvelope> => {
      try {
        const raw = await readPayload(c, endpoint.method, endpoint.request)
        const payload = decodeRequest(endpoint.request, raw)
        const data = await handler({ payload, user, c })
        return envelope(Status.ok, encodeResponse(endpoint.response, data))
      } catch (error) {
        if (error instanceof DomainError) return { status: error.status, success: false, msg: error.msg, data: error.data }
        throw error
      }
    }
    const key = endpoint.idempotent === true && db !== null && user ? c.req.header(IDEMPOTENCY_KEY_HEADER) : undefined
    if (key === undefined) return c.json(await handle())
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) return failure(c, Status.invalidPayload, KEY_INVALID_MSG)
    const abandon = c.req.header(IDEMPOTENCY_ABANDON_HEADER) === '1'
    return c.json(await runOnce(db!, { userId: user!.id, key, endpoint: endpoint.name, abandon }, handle))
  })
}

/** Serves an endpoint that requires a valid `Authorization` token (raw, no "Bearer"); otherwise HTTP 401. */
export const route = <E extends Endpoint>(app: App, endpoint: E, handler: AuthedHandler<E>): void =>
  register(app, endpoint, false, handler as any)

/** Serves an endpoint anyone may call; the handler still sees the user when a valid token is sent. */
export const publicRoute = <E extends Endpoint>(app: App, endpoint: E, handler: PublicHandler<E>): void =>
  register(app, endpoint, true, handler as any)
