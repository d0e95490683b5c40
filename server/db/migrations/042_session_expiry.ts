// Sessions expire (issue 11 finding 4): existing ones get the full lifetime from now.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.alterTable('sessions')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now() + interval '30 days'`))
    .execute()
}
