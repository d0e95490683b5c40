// Table types of the ads and notices migration, reached through `messagesDb(db)`.
import type { ColumnType, Generated, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

export interface AdsTable {
  id: Generated<number>
  ad_place: number
  ad_name: string
  /** absolute, or a server path (starting with "/") resolved against the request's origin. */
  image_url: string
  click_url: string
  phone_type: string | null
  android_version: string | null
  sort: ColumnType<number, number | undefined, number>
  enabled: ColumnType<boolean, boolean | undefined, boolean>
}

export interface NoticesTable {
  id: Generated<number>
  title: string
  content: string
  notice_type: number
  pop_up: ColumnType<boolean, boolean | undefined, boolean>
  user_id: number | null
  /** lets the seed stay idempotent. */
  seed_key: string | null
  created_at: ColumnType<Date, Date | string | undefined, never>
}

export interface NoticeReadsTable {
  notice_id: number
  user_id: number
  read_at: ColumnType<Date, Date | string | undefined, never>
}

export type MessageTables = {
  ads: AdsTable
  notices: NoticesTable
  notice_reads: NoticeReadsTable
}

export type MessagesDb = Kysely<Database & MessageTables>

export const messagesDb = (db: Kysely<Database>): MessagesDb => db.withTables<MessageTables>()
