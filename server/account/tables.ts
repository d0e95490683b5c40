// Table types of the account migration (030_account), reached through `accountDb(db)`.
import type { ColumnType, Generated, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

type Created = ColumnType<Date, Date | string | undefined, never>
/** numeric columns come back as strings from PostgreSQL. */
type Numeric = ColumnType<string, number | string, number | string>
type NullableNumeric = ColumnType<string | null, number | string | null | undefined, number | string | null>

export interface AccountProfilesTable {
  user_id: number
  head_portrait: string | null
  secondary_password_hash: string | null
  real_name_masked: string | null
  id_card_masked: string | null
  id_card_digest: string | null
  verified_at: ColumnType<Date | null, Date | undefined, Date>
}

export interface SecurityTicketsTable {
  ticket: string
  user_id: number
  expires_at: ColumnType<Date, Date, Date>
}

export interface CouponsTable {
  id: Generated<number>
  user_id: number
  coupon_name: string
  coupon_type: number
  coupon_value: Numeric
  deduction_price: Numeric
  max_value: NullableNumeric
  min_amount: Numeric
  batch_buy: boolean
  start_time: ColumnType<Date, Date | undefined, Date>
  end_time: ColumnType<Date, Date, Date>
  locked_order: string | null
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  source: string
  seed_key: string | null
  created_at: Created
}

export interface StarCoinRecordsTable {
  id: Generated<number>
  user_id: number
  kind: number
  amount: number
  description: string
  seed_key: string | null
  created_at: Created
}

export interface ActivationCodesTable {
  code: string
  code_type: number
  days: ColumnType<number, number | undefined, number>
  meal_id: number | null
  coupon_name: string | null
  coupon_type: number | null
  coupon_value: NullableNumeric
  deduction_price: NullableNumeric
  coupon_valid_days: number | null
  expires_at: ColumnType<Date, Date, Date>
  used_by: number | null
  used_at: ColumnType<Date | null, Date | undefined, Date | null>
  created_at: Created
}

export interface CustomServiceTable {
  id: number
  service_time: string
  phone: string
  link: string | null
  tips: string
}

export type AccountTables = {
  account_profiles: AccountProfilesTable
  account_security_tickets: SecurityTicketsTable
  account_coupons: CouponsTable
  account_star_coin_records: StarCoinRecordsTable
  account_activation_codes: ActivationCodesTable
  account_custom_service: CustomServiceTable
}

export type AccountDb = Kysely<Database & AccountTables>

export const accountDb = (db: Kysely<Database>): AccountDb => db.withTables<AccountTables>()
