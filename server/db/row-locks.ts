// Row locks and ids for writes that race (issue 11 finding 6). Locks are taken in one order everywhere, devices (by
// id) before users, so two transactions never wait on each other in a cycle; they last until the transaction ends.
import { sql, type Kysely } from 'kysely'
import type { Database } from './schema.ts'

/** Any area's view of the database (it extends the core tables) as the core's. */
const core = <DB extends Database>(db: Kysely<DB>): Kysely<Database> => db as unknown as Kysely<Database>

/** Locks the devices now holding these userCardIds; checks made after it see rows no one else can change meanwhile. */
export const lockCards = async <DB extends Database>(trx: Kysely<DB>, userCardIds: ReadonlyArray<number>): Promise<void> => {
  if (userCardIds.length === 0) return
  await core(trx).selectFrom('devices').select('id').where('user_card_id', 'in', [...userCardIds]).orderBy('id').forUpdate().execute()
}

/**
 * Makes the device-count checks of one owner (the 60-device cap) take turns: the user's row, locked without blocking
 * the foreign-key checks of other writes that merely name the user.
 */
export const lockDeviceOwner = async <DB extends Database>(trx: Kysely<DB>, userId: number): Promise<void> => {
  await core(trx).selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute()
}

/** `n` fresh userCardIds from the one sequence (never a number already given out, on any instance). */
export const nextUserCardIds = async <DB extends Database>(db: Kysely<DB>, n: number): Promise<number[]> => {
  if (n <= 0) return []
  const { rows } = await sql<{ id: string | number }>`select nextval('user_card_id_seq') as id from generate_series(1, ${n})`.execute(db)
  return rows.map((r) => Number(r.id))
}

/** After rows with fixed userCardIds were written (the demo seed), the sequence goes on past the largest. */
export const syncUserCardIds = async (db: Kysely<Database>): Promise<void> => {
  await sql`select setval('user_card_id_seq', greatest(
    coalesce((select max(user_card_id) from devices), 0), 880000, (select last_value from user_card_id_seq)))`.execute(db)
}
