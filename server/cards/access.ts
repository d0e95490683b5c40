// Which devices a user may operate: their own and those authorised to them.
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { notFound } from '../http/errors.ts'

export const accessibleDevice = async (db: Kysely<Database>, userId: number, userCardId: number) => {
  const device = await db
    .selectFrom('devices')
    .selectAll()
    .where('user_card_id', '=', userCardId)
    .where((eb) =>
      eb.or([
        eb('owner_id', '=', userId),
        eb('id', 'in', eb.selectFrom('device_auths').select('device_id').where('grantee_id', '=', userId)),
      ]),
    )
    .executeTakeFirst()
  if (!device) throw notFound('云手机')
  return device
}
