// Table types of the files migrations (064_files, 080_phone_files, 081_avatar_chunks) and the database handle that sees them.
import type { ColumnType, Generated, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

export interface UploadTicketsTable {
  ticket: string
  user_id: number
  purpose: string
  expires_at: ColumnType<Date, Date, Date>
  used_at: ColumnType<Date | null, Date | undefined, Date>
  /** a phone-file ticket's phone, name and exact size (null for an avatar). */
  device_id: ColumnType<number | null, number | undefined, never>
  file_name: ColumnType<string | null, string | undefined, never>
  file_size: ColumnType<number | null, number | undefined, never>
}

export interface FilesTable {
  id: Generated<number>
  file_key: string
  user_id: number
  purpose: string
  content_type: string
  size: ColumnType<number, number, number>
  /** false while the chunks are written: never served, and removed if the upload fails. */
  complete: ColumnType<boolean, boolean | undefined, boolean>
  created_at: ColumnType<Date, never, never>
}

export interface FileChunksTable {
  file_id: number
  seq: number
  bytes: Uint8Array
}

export interface PhoneFilesTable {
  id: Generated<number>
  device_id: number
  user_id: number | null
  name: string
  size: number
  content_type: string
  upload_key: string
  complete: ColumnType<boolean, boolean | undefined, boolean>
  created_at: ColumnType<Date, Date | undefined, Date>
}

export interface PhoneFileChunksTable {
  file_id: number
  seq: number
  bytes: Uint8Array
}

export type FileTables = {
  upload_tickets: UploadTicketsTable
  files: FilesTable
  file_chunks: FileChunksTable
  phone_files: PhoneFilesTable
  phone_file_chunks: PhoneFileChunksTable
  phone_file_seeds: { device_id: number }
}

export type FilesDb = Kysely<Database & FileTables>

export const filesDb = (db: Kysely<Database>): FilesDb => db.withTables<FileTables>()
