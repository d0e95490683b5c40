// Avatars' bytes in chunks like the phone files' (issue 22 finding 4): no query writes or reads a whole picture, so a
// 2 MiB upload or read never holds the database for long (on PGlite new pictures go to files under the data dir:
// server/files/avatars.ts). Existing pictures are split into chunks; `complete` is false while an upload is written.
import { sql, type Kysely } from 'kysely'

const CHUNK_BYTES = 64 * 1024

export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.createTable('file_chunks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['file_id', 'seq'])
    .execute()
  // pictures do not compress: no attempt on each write
  await sql`alter table file_chunks alter column bytes set storage external`.execute(db)
  await db.schema.alterTable('files').addColumn('complete', 'boolean', (c) => c.notNull().defaultTo(true)).execute()
  await sql`insert into file_chunks (file_id, seq, bytes)
    select f.id, s.seq, substring(f.bytes from s.seq * ${sql.lit(CHUNK_BYTES)} + 1 for ${sql.lit(CHUNK_BYTES)})
    from files f, generate_series(0, (length(f.bytes) - 1) / ${sql.lit(CHUNK_BYTES)}) as s(seq)
    where length(f.bytes) > 0`.execute(db)
  await db.schema.alterTable('files').dropColumn('bytes').execute()
  await db.schema.createIndex('files_user_purpose').on('files').columns(['user_id', 'purpose']).execute()
}
