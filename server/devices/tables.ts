// Table types of the device-operation migrations, and the database handle that sees them beside the core tables.
import type { ColumnType, Generated, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

type Time = ColumnType<Date, Date | string, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>

export interface DeviceRuntimeTable {
  device_id: number
  busy_since: Time | null
  busy_until: Time | null
  busy_reason: string | null
  connect_count: Generated<number>
  last_connect_at: Time | null
}

export interface DeviceSessionsTable {
  card_token: string
  device_id: number
  user_id: number
  created_at: CreatedAt
  /** the login session (sessions.token) that asked for the card token; its end ends the token (120_card_token_sessions). */
  session_token: string
  /** the session's expiry: the token ends then at the latest. */
  expires_at: Time
}

export interface DeviceAuthRecordsTable {
  id: Generated<number>
  device_id: number
  owner_id: number
  grantee_id: number
  /** 0 in force, 1 cancelled. */
  status: Generated<number>
  created_at: CreatedAt
  cancelled_at: Time | null
}

export interface DeviceTransfersTable {
  id: Generated<number>
  device_id: number
  user_card_id: number
  disk_name: string
  from_user_id: number
  to_user_id: number
  created_at: CreatedAt
}

export interface DeviceReplacementsTable {
  id: Generated<number>
  device_id: number
  owner_id: number
  old_user_card_id: number
  new_user_card_id: number
  disk_name: string
  created_at: CreatedAt
}

export interface DeviceTimingRecordsTable {
  id: Generated<number>
  device_id: number
  timer_type: number
  duration_minutes: number
  start_time: Time
  offline_time: Time
}

export interface DeviceModelsTable {
  id: Generated<number>
  manufacturer: string
  brand: string
  model: string
  market_name: string
}

export interface DeviceModelParamsTable {
  device_id: number
  model_id: number
  factory_model_id: number
  imei: string
  serial_no: string
  android_id: string
}

export type DeviceTables = {
  device_runtime: DeviceRuntimeTable
  device_sessions: DeviceSessionsTable
  device_auth_records: DeviceAuthRecordsTable
  device_transfers: DeviceTransfersTable
  device_replacements: DeviceReplacementsTable
  device_timing_records: DeviceTimingRecordsTable
  device_models: DeviceModelsTable
  device_model_params: DeviceModelParamsTable
}

export type DevicesDb = Kysely<Database & DeviceTables>

export const devicesDb = (db: Kysely<Database>): DevicesDb => db.withTables<DeviceTables>()
