// Table types of the session module's migration (002_sms_agreement), added to the core database type.
import type { ColumnType, Generated, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

export type SmsCodesTable = {
  id: Generated<number>
  phone: string
  /** SmsPurpose of the send call (`authorizationType`). */
  purpose: number
  code: string
  /** wrong guesses so far; the code dies at MAX_CODE_ATTEMPTS. */
  attempts: ColumnType<number, number | undefined, number>
  used_at: ColumnType<Date | null, Date | undefined, Date>
  created_at: ColumnType<Date, Date | undefined, never>
}

export type AgreementsTable = {
  id: number
  title: string
  content: string
  updated_at: ColumnType<Date, Date | undefined, Date>
}

export type SessionTables = { sms_codes: SmsCodesTable; agreements: AgreementsTable }

export type SessionDb = Kysely<Database & SessionTables>

export const sessionDb = (db: Kysely<Database>): SessionDb => db.withTables<SessionTables>()
