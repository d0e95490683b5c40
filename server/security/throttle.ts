// Attempt throttling with exponential backoff, per account and per client address (issue 11 finding 1). The password
// login's lockout spares the account's usual clients (issue 22 finding 6: session/routes.ts). The counts
// live in the database (one atomic upsert per failure), so every server instance enforces the same limits.
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { DomainError } from '../http/errors.ts'
import { texts } from './texts.ts'

export interface ThrottlePolicy {
  /** failures allowed before the first block. */
  readonly free: number
  /** a quiet period this long after the last failure forgets the count. */
  readonly forgetMs: number
  /** the first block; each further failure doubles it. */
  readonly baseBlockMs: number
  readonly maxBlockMs: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** The product's limits. An address serves many people (NAT), so its budgets are larger than an account's. */
export const Policies = {
  /** failures on the account from any client; blocks only clients that are not one of the account's usual ones. */
  loginAccount: { free: 5, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: 15 * MINUTE },
  /** failures on the account from one client (its per-browser uuid): what blocks a usual client. */
  loginClient: { free: 5, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: 15 * MINUTE },
  loginAddress: { free: 30, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: 15 * MINUTE },
  /** every send counts (on top of the one-per-60-s rule of each phone). */
  smsSendPhone: { free: 5, forgetMs: HOUR, baseBlockMs: MINUTE, maxBlockMs: HOUR },
  smsSendAddress: { free: 20, forgetMs: HOUR, baseBlockMs: MINUTE, maxBlockMs: HOUR },
  /** wrong codes across all codes of a phone (each code also dies after 5). */
  smsGuessPhone: { free: 10, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  smsGuessAddress: { free: 30, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  activationAccount: { free: 10, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  activationAddress: { free: 30, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  /** every avatar upload ticket counts (issue 22 finding 4: uploads bounded per user). */
  avatarUpload: { free: 20, forgetMs: HOUR, baseBlockMs: MINUTE, maxBlockMs: HOUR },
} as const satisfies Record<string, ThrottlePolicy>

export interface ThrottleKey {
  readonly key: string
  readonly policy: ThrottlePolicy
}

export const throttleKey = (action: keyof typeof Policies, subject: string | number): ThrottleKey =>
  ({ key: `${action}:${subject}`, policy: Policies[action] })

/** How long the n-th failure blocks (0 while within the free budget). */
export const blockMsAfter = (failures: number, p: ThrottlePolicy): number =>
  failures < p.free ? 0 : Math.min(p.maxBlockMs, p.baseBlockMs * 2 ** Math.min(30, failures - p.free))

export const THROTTLED_STATUS = 1021

export interface Throttle {
  /** refuses (DomainError THROTTLED_STATUS, Chinese msg with the wait: `message`, texts.throttled by default) while any key is blocked. */
  guard(keys: ReadonlyArray<ThrottleKey>, message?: (seconds: number) => string): Promise<void>
  /** counts one attempt (a failure, or a send) against every key. */
  record(keys: ReadonlyArray<ThrottleKey>): Promise<void>
  /** forgets the keys (a success of the account's owner). */
  clear(keys: ReadonlyArray<ThrottleKey>): Promise<void>
}

type ThrottleDb = Kysely<Database & { auth_throttle: { key: string; failures: number; last_failure_at: Date; blocked_until: Date | null } }>

export const createThrottle = (database: Kysely<Database>, now: () => number = Date.now): Throttle => {
  const db = database as unknown as ThrottleDb
  return {
    async guard(keys, message = texts.throttled) {
      if (keys.length === 0) return
      const rows = await db.selectFrom('auth_throttle').select('blocked_until').where('key', 'in', keys.map((k) => k.key)).execute()
      const until = Math.max(0, ...rows.map((r) => (r.blocked_until ? new Date(r.blocked_until).getTime() : 0)))
      const waitMs = until - now()
      if (waitMs > 0) throw new DomainError(THROTTLED_STATUS, message(Math.ceil(waitMs / 1000)))
    },
    async record(keys) {
      const at = new Date(now())
      for (const { key, policy } of keys) {
        const forgetBefore = new Date(at.getTime() - policy.forgetMs)
        // one statement: concurrent failures on any instance each count
        const row = await db.insertInto('auth_throttle').values({ key, failures: 1, last_failure_at: at, blocked_until: null })
          .onConflict((oc) => oc.column('key').doUpdateSet({
            failures: sql<number>`case when auth_throttle.last_failure_at < ${forgetBefore} then 1 else auth_throttle.failures + 1 end`,
            last_failure_at: at,
          }))
          .returning('failures').executeTakeFirstOrThrow()
        const blockMs = blockMsAfter(row.failures, policy)
        if (blockMs > 0) {
          const until = new Date(at.getTime() + blockMs)
          await db.updateTable('auth_throttle')
            .set({ blocked_until: sql<Date>`greatest(coalesce(blocked_until, ${until}), ${until})` })
            .where('key', '=', key).execute()
        }
      }
    },
    async clear(keys) {
      if (keys.length === 0) return
      await db.deleteFrom('auth_throttle').where('key', 'in', keys.map((k) => k.key)).execute()
    },
  }
}

/**
 * A volume limit (issue 22 finding 5): at most `limit` units per fixed window of `windowMs`, counted in the same table
 * as the attempt throttle (one atomic upsert per use, so every instance shares the count).
 */
export interface RatePolicy {
  readonly limit: number
  readonly windowMs: number
}

/** Analytics writes, counted in stored rows: an address serves many people (NAT), an account one. */
export const RatePolicies = {
  analyticsAddress: { limit: 3_000, windowMs: 10 * MINUTE },
  analyticsUser: { limit: 600, windowMs: 10 * MINUTE },
  /** group control, counted in phones a command reaches for the first time (each one a ledger row; issue 41 finding 9). */
  groupCommandUser: { limit: 600, windowMs: 10 * MINUTE },
} as const satisfies Record<string, RatePolicy>

export interface RateKey {
  readonly key: string
  readonly policy: RatePolicy
}

export const rateKey = (action: keyof typeof RatePolicies, subject: string | number): RateKey =>
  ({ key: `${action}:${subject}`, policy: RatePolicies[action] })

export interface RateLimit {
  /**
   * counts `amount` units against every key; refuses (DomainError THROTTLED_STATUS, Chinese msg with the wait: `message`,
   * texts.throttled by default) when one goes over its limit.
   */
  take(keys: ReadonlyArray<RateKey>, amount: number, message?: (seconds: number) => string): Promise<void>
}

export const createRateLimit = (database: Kysely<Database>, now: () => number = Date.now): RateLimit => {
  const db = database as unknown as ThrottleDb
  return {
    async take(keys, amount, message = texts.throttled) {
      const at = new Date(now())
      let waitMs = 0
      for (const { key, policy } of keys) {
        const windowStart = new Date(at.getTime() - policy.windowMs)
        // last_failure_at holds the window's start here; a window that has passed starts again at this use
        const row = await db.insertInto('auth_throttle').values({ key, failures: amount, last_failure_at: at, blocked_until: null })
          .onConflict((oc) => oc.column('key').doUpdateSet({
            failures: sql<number>`case when auth_throttle.last_failure_at <= ${windowStart} then ${amount} else auth_throttle.failures + ${amount} end`,
            last_failure_at: sql<Date>`case when auth_throttle.last_failure_at <= ${windowStart} then ${at} else auth_throttle.last_failure_at end`,
          }))
          .returning(['failures', 'last_failure_at']).executeTakeFirstOrThrow()
        if (row.failures > policy.limit) {
          waitMs = Math.max(waitMs, new Date(row.last_failure_at).getTime() + policy.windowMs - at.getTime())
        }
      }
      if (waitMs > 0) throw new DomainError(THROTTLED_STATUS, message(Math.max(1, Math.ceil(waitMs / 1000))))
    },
  }
}
