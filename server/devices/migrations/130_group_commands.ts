// Group control's ledger (issue 23, server/devices/group.ts): each command a user sent (its client-made id, action and
// payload, so a re-send with the same id must be the same command) and each phone's outcome of it, keyed by
// (user, command id, phone): a command sent again (a killed worker, a dropped connection, a server restart) is applied
// to no phone twice; the stored row answers instead.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  const now = sql`now()`
  await db.schema.createTable('group_commands')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('command_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('file_id', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('group_commands_pk', ['user_id', 'command_id'])
    .execute()
  await db.schema.createTable('group_command_results')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('command_id', 'text', (c) => c.notNull())
    /** the phone as the caller named it (a refused, unknown card has no device row). */
    .addColumn('user_card_id', 'integer', (c) => c.notNull())
    .addColumn('disk_name', 'text', (c) => c.notNull())
    .addColumn('ok', 'boolean', (c) => c.notNull())
    /** 0 when ok, else the refusal's status code (the msg is its Chinese reason). */
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('msg', 'text', (c) => c.notNull())
    .addColumn('ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('group_command_results_pk', ['user_id', 'command_id', 'user_card_id'])
    .addForeignKeyConstraint('group_command_results_command', ['user_id', 'command_id'], 'group_commands', ['user_id', 'command_id'], (c) => c.onDelete('cascade'))
    .execute()
}
