// Hardening (issue 11): attempt counters of the throttled actions (logins, SMS sends and guesses, activation-code
// guesses), one row per account or client address, in the database so every server instance sees them.
import type { Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('auth_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'timestamptz', (c) => c.notNull())
    .addColumn('blocked_until', 'timestamptz')
    .execute()
}
