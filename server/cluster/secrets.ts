// Secrets every instance of a deployment must agree on, kept in the database: made by whichever instance needs one
// first, read by the others.
import { randomBytes } from 'node:crypto'
import type { ClusterDb } from './tables.ts'

export const sharedSecret = async (db: ClusterDb, name: string): Promise<string> => {
  await db.insertInto('server_secrets').values({ name, value: randomBytes(24).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing()).execute()
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
  return row.value
}
