// Per-database server secrets (random, generated once, kept in server_keys beside the login key), for keyed hashes
// of values that must not be reversible from a dump.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

export const serverSecret = async (db: Kysely<Database>, name: string): Promise<Buffer> => {
  await db.insertInto('server_keys').values({ name, private_pem: randomBytes(32).toString('hex'), public_pem: '' })
    .onConflict((oc) => oc.column('name').doNothing()).execute()
  const row = await db.selectFrom('server_keys').select('private_pem').where('name', '=', name).executeTakeFirstOrThrow()
  return Buffer.from(row.private_pem, 'hex')
}
