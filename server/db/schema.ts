// Table types of the core migrations (snake_case columns). Other modules add theirs with `db.withTables<T>()`.
import type { ColumnType, Generated } from 'kysely'

type CreatedAt = ColumnType<Date, Date | string | undefined, never>

export interface UsersTable {
  id: Generated<number>
  username: string
  phone: string
  /** scrypt of the lowercase hex MD5 of the password: `scrypt$<salt hex>$<hash hex>`. */
  password_hash: string
  user_type: number
  nick_name: string
  /** username of whoever invited this user (login/registration `invitationUserName`). */
  inviter: string | null
  created_at: CreatedAt
}

export interface SessionsTable {
  token: string
  user_id: number
  uuid: string
  created_at: CreatedAt
  /** 042_session_expiry. */
  expires_at: ColumnType<Date, Date | undefined, Date>
}

export interface ServerKeysTable {
  name: string
  private_pem: string
  public_pem: string
}

export interface DevicesTable {
  id: Generated<number>
  user_card_id: number
  owner_id: number
  disk_name: string
  buy_vip_type: string
  /** absolute expiry; validTime (minutes left) is computed at read time. */
  expires_at: ColumnType<Date, Date | string, Date | string>
  room: string
  free_trial: number
  phone_type: string
  android_version: string
  preview_url: string
  created_at: CreatedAt
}

export interface DeviceAuthsTable {
  id: Generated<number>
  device_id: number
  /** the owner who granted access. */
  owner_id: number
  /** the user the device is authorised to. */
  grantee_id: number
  created_at: CreatedAt
}

export interface MealTypesTable {
  id: Generated<number>
  phone_type: string
  phone_type_name: string
  android_version: string
  preview_url: string
  sort: number
}

export interface MealsTable {
  id: Generated<number>
  phone_type: string
  meal_name: string
  day: number
  actual_price: string
  original_price: string
  preferential_content: string
  custom_statement: string
  give_star_num: number
  support: boolean
  renewal_type: number
  remain_quantity: number
  sort: number
}

export interface VisitsTable {
  id: Generated<number>
  uuid: string
  operation_type: number
  phone_number: string | null
  /** for operationType 2: the id of the operationType 1 visit it closes. */
  login_id: number | null
  user_id: number | null
  created_at: CreatedAt
}

export interface MaintenanceTable {
  id: number
  maintenance_switch: boolean
  maintenance_content: string
  show_time: string
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface SystemConfigTable {
  key: string
  value: string
}

export interface StatPointsTable {
  id: Generated<number>
  point_name: string
  user_id: number | null
  created_at: CreatedAt
}

/** Issue 40: a keyed write's outcome (server/http/idempotency.ts). */
export interface IdempotencyKeysTable {
  user_id: number
  key: string
  endpoint: string
  outcome: string
  created_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface Database {
  idempotency_keys: IdempotencyKeysTable
  users: UsersTable
  sessions: SessionsTable
  server_keys: ServerKeysTable
  devices: DevicesTable
  device_auths: DeviceAuthsTable
  meal_types: MealTypesTable
  meals: MealsTable
  visits: VisitsTable
  maintenance: MaintenanceTable
  system_config: SystemConfigTable
  stat_points: StatPointsTable
}
