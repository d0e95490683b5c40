// Table types of the orders migration (020) and the database handle that sees them beside the core and account tables.
import type { ColumnType, Generated, Kysely } from 'kysely'
import type { AccountTables } from '../account/tables.ts'
import type { Database } from '../db/schema.ts'

type Time = ColumnType<Date, Date | string, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>

export interface OrdersTable {
  id: Generated<number>
  my_order_num: string
  user_id: number
  buy_type: number
  meal_id: number
  phone_type: string
  android_version: string
  tier: string
  day: number
  quantity: number
  coupon_id: number | null
  disk_names: string
  user_card_ids: string
  description: string
  total_cents: number
  star_coin: number
  give_star_num: number
  preferential_content: string
  pay_type: number | null
  /** 0 unpaid, 1 paid, 2 paying, 3 failed, 4 expired, 5 cancelled, 6 refunded (paid, but its devices had changed). */
  finish_pay: Generated<number>
  qr_code: string | null
  /** JSON TargetSnapshot[] of a renewal or upgrade ('' for purchases and older orders). */
  targets_snapshot: ColumnType<string, string | undefined, string>
  ctime: CreatedAt
  close_time: Time
  finish_time: Time | null
}

export type PayTables = { orders: OrdersTable }

/** Orders, plus the account module's coupons and star coin records (a payment holds, uses and releases those). */
export type PayDb = Kysely<Database & PayTables & AccountTables>

export const payDb = (db: Kysely<Database>): PayDb => db.withTables<PayTables & AccountTables>()
