// Feature switches kept in the system configuration ('true' / 'false'; absent = the default), read by their
// endpoints and turned by operators (`npm run ops -- switch <name> on|off`).
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

/** Operator name -> configuration key and the value when unset. */
export const SWITCHES = {
  batch: { key: 'phoneMealBatchSwitch', fallback: true },
  register: { key: 'passwordRegisterSwitch', fallback: true },
} as const
export type SwitchName = keyof typeof SWITCHES

export const readSwitch = async (db: Kysely<Database>, name: SwitchName): Promise<boolean> => {
  const { key, fallback } = SWITCHES[name]
  const row = await db.selectFrom('system_config').select('value').where('key', '=', key).executeTakeFirst()
  return row ? row.value !== 'false' : fallback
}

export const writeSwitch = async (db: Kysely<Database>, name: SwitchName, on: boolean): Promise<void> => {
  const { key } = SWITCHES[name]
  await db.insertInto('system_config').values({ key, value: String(on) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(on) })).execute()
}

export const readConfigText = async (db: Kysely<Database>, key: string): Promise<string> =>
  (await db.selectFrom('system_config').select('value').where('key', '=', key).executeTakeFirst())?.value ?? ''
