// Keyed writes (issue 40; the contract is worker/protocol/idempotency.ts): a non-repeatable endpoint called with an
// Idempotency-Key runs at most once per (user, key). The key is claimed, the handler run and its envelope stored in
// one transaction, which the handler's own queries join (db/ambient.ts): the write and its record commit together, or
// neither does (an unexpected error rolls both back and the key stays free for the retry). A repeat, on any instance,
// finds the row (on PostgreSQL its insert waits for the first one's commit) and gets the stored envelope.
import type { Kysely } from 'kysely'
import {
  IDEMPOTENCY_KEEP_MS, KEY_REUSED_MSG, KEY_REUSED_STATUS, NOT_APPLIED_MSG, NOT_APPLIED_STATUS,
} from '../../worker/protocol/idempotency.ts'
import { withAmbientTransaction } from '../db/ambient.ts'
import type { Database } from '../db/schema.ts'

export interface StoredEnvelope {
  readonly status: number
  readonly success: boolean
  readonly msg: string
  readonly data: unknown
}

const notApplied: StoredEnvelope = { status: NOT_APPLIED_STATUS, success: false, msg: NOT_APPLIED_MSG, data: null }

export interface KeyedWrite {
  readonly userId: number
  readonly key: string
  readonly endpoint: string
  /** settle the key as never applied unless it was (the core gave up sending the write). */
  readonly abandon: boolean
}

/** Runs `handle` once for the key and answers its envelope; a repeat answers what the first one stored. */
export const runOnce = (db: Kysely<Database>, write: KeyedWrite, handle: () => Promise<StoredEnvelope>): Promise<StoredEnvelope> =>
  db.transaction().execute(async (trx) => {
    const claimed = await trx.insertInto('idempotency_keys')
      .values({ user_id: write.userId, key: write.key, endpoint: write.endpoint, outcome: '' })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst()
    if (claimed === undefined) {
      const row = await trx.selectFrom('idempotency_keys').select(['endpoint', 'outcome'])
        .where('user_id', '=', write.userId).where('key', '=', write.key).executeTakeFirstOrThrow()
      if (row.endpoint !== write.endpoint) return { status: KEY_REUSED_STATUS, success: false, msg: KEY_REUSED_MSG, data: null }
      return JSON.parse(row.outcome) as StoredEnvelope
    }
    const outcome = write.abandon ? notApplied : await withAmbientTransaction(trx, handle)
    await trx.updateTable('idempotency_keys').set({ outcome: JSON.stringify(outcome) })
      .where('user_id', '=', write.userId).where('key', '=', write.key).execute()
    return outcome
  })

/** Forgets keys older than IDEMPOTENCY_KEEP_MS; returns how many. */
export const purgeIdempotencyKeys = async (db: Kysely<Database>, now = Date.now()): Promise<number> => {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', new Date(now - IDEMPOTENCY_KEEP_MS)).executeTakeFirst()
  return Number(result.numDeletedRows)
}
