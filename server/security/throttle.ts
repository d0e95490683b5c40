// Attempt throttling with exponential backoff, per account and per client address (issue 11 finding 1). The counts
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
  loginAccount: { free: 5, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: 15 * MINUTE },
  loginAddress: { free: 30, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: 15 * MINUTE },
  /** every send counts (on top of the one-per-60-s rule of each phone). */
  smsSendPhone: { free: 5, forgetMs: HOUR, baseBlockMs: MINUTE, maxBlockMs: HOUR },
  smsSendAddress: { free: 20, forgetMs: HOUR, baseBlockMs: MINUTE, maxBlockMs: HOUR },
  /** wrong codes across all codes of a phone (each code also dies after 5). */
  smsGuessPhone: { free: 10, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  smsGuessAddress: { free: 30, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  activationAccount: { free: 10, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
  activationAddress: { free: 30, forgetMs: HOUR, baseBlockMs: 30_000, maxBlockMs: HOUR },
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
  /** refuses (DomainError THROTTLED_STATUS, Chinese msg with the wait) while any key is blocked. */
  guard(keys: ReadonlyArray<ThrottleKey>): Promise<void>
  /** counts one attempt (a failure, or a send) against every key. */
  record(keys: ReadonlyArray<ThrottleKey>): Promise<void>
  /** forgets the keys (a success of the account's owner). */
  clear(keys: ReadonlyArray<ThrottleKey>): Promise<void>
}

type ThrottleDb = Kysely<Database & { auth_throttle: { key: string; failures: number; last_failure_at: Date; blocked_until: Date | null } }>

export const createThrottle = (database: Kysely<Database>, now: () => number = Date.now): Throttle => {
  const db = database as unknown as ThrottleDb
  return {
    async guard(keys) {
      if (keys.length === 0) return
      const rows = await db.selectFrom('auth_throttle').select('blocked_until').where('key', 'in', keys.map((k) => k.key)).execute()
      const until = Math.max(0, ...rows.map((r) => (r.blocked_until ? new Date(r.blocked_until).getTime() : 0)))
      const waitMs = until - now()
      if (waitMs > 0) throw new DomainError(THROTTLED_STATUS, texts.throttled(Math.ceil(waitMs / 1000)))
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
