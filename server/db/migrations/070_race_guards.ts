// Issue 11 finding 6: what the database itself guarantees when requests race. A device is authorised to one user at a
// time (unique device_id; duplicates an earlier race left behind are dropped, newest first), and userCardIds come from
// one sequence instead of max(user_card_id) + 1 (two transactions read the same max).
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await sql`delete from device_auths a using device_auths b where a.device_id = b.device_id and a.id > b.id`.execute(db)
  await db.schema.createIndex('device_auths_one_per_device').on('device_auths').column('device_id').unique().execute()
  await sql`create sequence user_card_id_seq`.execute(db)
  await sql`select setval('user_card_id_seq', greatest(coalesce((select max(user_card_id) from devices), 0), 880000))`.execute(db)
}
