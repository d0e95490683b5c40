// Tables of the device operations: runtime state (busy/restarting, connect counts), viewer sessions, authorisation
// history, transfers, replacements, timer shutdown records, model parameters and the model catalogue.
import { sql, type Kysely } from 'kysely'

export const up = async (db: Kysely<any>): Promise<void> => {
  const now = sql`now()`
  await db.schema.createTable('device_runtime')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('busy_since', 'timestamptz')
    .addColumn('busy_until', 'timestamptz')
    .addColumn('busy_reason', 'text')
    .addColumn('connect_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_connect_at', 'timestamptz')
    .execute()
  await db.schema.createTable('device_sessions')
    .addColumn('card_token', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createTable('device_auth_records')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('grantee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('cancelled_at', 'timestamptz')
    .execute()
  await db.schema.createTable('device_transfers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('user_card_id', 'integer', (c) => c.notNull())
    .addColumn('disk_name', 'text', (c) => c.notNull())
    .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createTable('device_replacements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('old_user_card_id', 'integer', (c) => c.notNull())
    .addColumn('new_user_card_id', 'integer', (c) => c.notNull())
    .addColumn('disk_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createTable('device_timing_records')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('timer_type', 'integer', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('start_time', 'timestamptz', (c) => c.notNull())
    .addColumn('offline_time', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createTable('device_models')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('manufacturer', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('market_name', 'text', (c) => c.notNull())
    .addUniqueConstraint('device_models_manufacturer_model', ['manufacturer', 'model'])
    .execute()
  await db.schema.createTable('device_model_params')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('model_id', 'integer', (c) => c.notNull().references('device_models.id'))
    .addColumn('factory_model_id', 'integer', (c) => c.notNull().references('device_models.id'))
    .addColumn('imei', 'text', (c) => c.notNull())
    .addColumn('serial_no', 'text', (c) => c.notNull())
    .addColumn('android_id', 'text', (c) => c.notNull())
    .execute()
  const models: ReadonlyArray<[string, string, string, string]> = [
    ['Xiaomi', 'Xiaomi', '2211133C', '小米 13'],
    ['Xiaomi', 'Redmi', '23049RAD8C', 'Redmi Note 12 Turbo'],
    ['HUAWEI', 'HUAWEI', 'ALN-AL00', 'HUAWEI Mate 60 Pro'],
    ['HUAWEI', 'HONOR', 'PGT-AN10', '荣耀 Magic6'],
    ['OPPO', 'OPPO', 'PHZ110', 'OPPO Find X6'],
    ['OPPO', 'OnePlus', 'PHB110', '一加 11'],
    ['vivo', 'vivo', 'V2227A', 'vivo X90'],
    ['vivo', 'iQOO', 'V2231A', 'iQOO 11'],
    ['samsung', 'samsung', 'SM-S9180', 'Galaxy S23'],
  ]
  for (const [manufacturer, brand, model, marketName] of models) {
    await db.insertInto('device_models').values({ manufacturer, brand, model, market_name: marketName }).execute()
  }
}
