// What the server hands to route modules (ours and `server/devices/index.ts`): the app, the database, the push hub,
// the route helpers and authentication. `server/devices/index.ts` exports `registerDeviceRoutes(ctx: ServerContext)`.
import type { Context, Hono } from 'hono'
import type { Kysely } from 'kysely'
import type { Endpoint, RequestOf, ResponseOf } from '../worker/protocol/endpoint.ts'
import type { PushMessage } from '../worker/protocol/push.ts'
import type { Database } from './db/schema.ts'

/** The authenticated caller of a request (from the `Authorization` header: the raw token). */
export interface AuthUser {
  readonly id: number
  readonly username: string
  readonly phone: string
  readonly userType: number
  readonly token: string
  /** when the token's session expires (ms since the epoch; the push socket closes then). */
  readonly expiresAt?: number
}

export type AppEnv = {
  Variables: {
    user: AuthUser | null
    /** see http/client-address.ts */
    clientAddress: string
    /** the peer is one of the deployment's balancers (TRUSTED_PROXIES; http/client-address.ts). */
    viaTrustedProxy: boolean
    /** the origin absolute URLs are built on (http/origin.ts). */
    origin: string
  }
}
export type App = Hono<AppEnv>

export interface HandlerInput<E extends Endpoint, U> {
  /** the decoded request payload (JSON body for POST/PUT, query string for GET/DELETE). */
  readonly payload: RequestOf<E>
  readonly user: U
  readonly c: Context<AppEnv>
}

/** A handler returns the endpoint's `data` (encoded with its response schema) or throws a `DomainError`. */
export type AuthedHandler<E extends Endpoint> = (input: HandlerInput<E, AuthUser>) => Promise<ResponseOf<E>> | ResponseOf<E>
export type PublicHandler<E extends Endpoint> = (input: HandlerInput<E, AuthUser | null>) => Promise<ResponseOf<E>> | ResponseOf<E>

/** Registers an endpoint that requires a valid token (missing/unknown token -> HTTP 401). */
export type RouteFn = <E extends Endpoint>(app: App, endpoint: E, handler: AuthedHandler<E>) => void
/** Registers an endpoint anyone may call; `user` is set when a valid token is sent anyway. */
export type PublicRouteFn = <E extends Endpoint>(app: App, endpoint: E, handler: PublicHandler<E>) => void

export interface Auth {
  /** the user a raw token belongs to, or null. */
  userFromToken(token: string | null | undefined): Promise<AuthUser | null>
  /** whether a token that is no longer valid ended because its account signed in elsewhere (answered 6013). */
  endedElsewhere?(token: string): Promise<boolean>
  /** a user by username or phone, or null. */
  findUser(usernameOrPhone: string): Promise<Omit<AuthUser, 'token'> | null>
}

/** Push activity of one user since the server started (the benchmarks read these through ops). */
export interface PushUserStats {
  readonly username: string
  readonly phone: string
  /** live connections now. */
  readonly live: number
  /** connections opened (authenticated) since start. */
  readonly opened: number
  /** keepAlive frames received since start. */
  readonly keepAlives: number
}

export interface PushHub {
  /** sends to every live connection of the user (by username or phone); returns how many sockets got it. */
  send(usernameOrPhone: string, message: PushMessage): Promise<number>
  /** closes every live connection of the user (e.g. after a forced logout) with the given close code. */
  disconnect(usernameOrPhone: string, code?: number): Promise<number>
  /** closes every live connection opened with one of these (revoked) tokens, as unauthorised. */
  closeTokens(tokens: ReadonlyArray<string>, lastFrame?: string): Promise<number>
  /** every user that connected since start. */
  stats(): ReadonlyArray<PushUserStats>
  /** total live connections. */
  liveCount(): number
}

/**
 * Events for every instance of the deployment, over the push hub's bus (in-process on PGlite): for what an instance
 * holds in memory and another instance's request changes (e.g. the simulated device streams it serves).
 */
export interface ClusterEvents {
  /** runs this instance's handlers of the topic at once, then every other instance's. */
  publish(topic: string, payload: unknown): Promise<void>
  subscribe(topic: string, handler: (payload: unknown) => void): void
}

export interface ServerContext {
  readonly app: App
  /** Tables of other modules: `ctx.db.withTables<MyTables>()`. */
  readonly db: Kysely<Database>
  readonly hub: PushHub
  readonly cluster: ClusterEvents
  readonly route: RouteFn
  readonly publicRoute: PublicRouteFn
  readonly auth: Auth
  readonly dataDir: string
}
