// The maintenance row (id 1): read by the public maintenance check, toggled by operators.
import type { Kysely } from 'kysely'
import type { MaintenanceMsg } from '../../worker/protocol/system.ts'
import type { Database } from '../db/schema.ts'

export const readMaintenance = async (db: Kysely<Database>): Promise<MaintenanceMsg> => {
  const row = await db.selectFrom('maintenance').selectAll().where('id', '=', 1).executeTakeFirst()
  return {
    maintenanceSwitch: row?.maintenance_switch ?? false,
    maintenanceContent: row?.maintenance_content ?? '',
    showTime: row?.show_time ?? '',
  }
}

export const writeMaintenance = async (db: Kysely<Database>, msg: MaintenanceMsg): Promise<MaintenanceMsg> => {
  const values = {
    maintenance_switch: msg.maintenanceSwitch,
    maintenance_content: msg.maintenanceContent,
    show_time: msg.showTime,
    updated_at: new Date(),
  }
  await db
    .insertInto('maintenance')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute()
  return readMaintenance(db)
}
