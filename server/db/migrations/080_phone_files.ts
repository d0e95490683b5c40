// Files on the cloud phones (uploads, and the few each phone comes with), their bytes in chunks so no request holds a
// whole file in memory, the marker of phones given their first files, and the phone-file upload tickets' target.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('phone_files')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    /** who uploaded it; null for the files the phone came with. */
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    /** the download capability (§7 "upload key"): unguessable, one per file. */
    .addColumn('upload_key', 'text', (c) => c.notNull().unique())
    /** false while the bytes are being written: such a row is reserved quota, listed and served only once true. */
    .addColumn('complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('phone_files_device').on('phone_files').columns(['device_id', 'created_at']).execute()
  await db.schema.createTable('phone_file_chunks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('phone_files.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('phone_file_chunks_pk', ['file_id', 'seq'])
    .execute()
  await db.schema.createTable('phone_file_seeds')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .execute()
  await db.schema.alterTable('upload_tickets')
    .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('cascade'))
    .execute()
  await db.schema.alterTable('upload_tickets').addColumn('file_name', 'text').execute()
  await db.schema.alterTable('upload_tickets').addColumn('file_size', 'integer').execute()
}
