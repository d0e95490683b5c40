// The payment switch (§3): per-OS buy switches and payTips from the system configuration, with the caller's osName
// derived from its User-Agent (the client's own guess is only a fallback).
import type { Kysely } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { PaySwitch } from '../../worker/protocol/pay.ts'
import { osNameOf } from '../../worker/protocol/pay-switch.ts'
import type { ServerContext } from '../context.ts'
import type { Database } from '../db/schema.ts'

const KEYS = ['iosBuySwitch', 'androidBuySwitch', 'payTips'] as const

export const readPaySwitch = async (db: Kysely<Database>, userAgent: string): Promise<PaySwitch> => {
  const rows = await db.selectFrom('system_config').select(['key', 'value']).where('key', 'in', [...KEYS]).execute()
  const value = (key: string) => rows.find((r) => r.key === key)?.value
  return {
    iosBuySwitch: value('iosBuySwitch') !== 'false',
    androidBuySwitch: value('androidBuySwitch') !== 'false',
    osName: osNameOf(userAgent),
    payTips: value('payTips') ?? '',
  }
}

/** Operator control: turns one OS's buy switch on or off; payTips (when given) is the text shown while off. */
export const writePaySwitch = async (db: Kysely<Database>, os: 'ios' | 'android', on: boolean, payTips?: string): Promise<void> => {
  const rows = [{ key: os === 'ios' ? 'iosBuySwitch' : 'androidBuySwitch', value: String(on) }]
  if (payTips !== undefined) rows.push({ key: 'payTips', value: payTips })
  for (const row of rows) {
    await db.insertInto('system_config').values(row).onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value })).execute()
  }
}

export const registerPaySwitchRoutes = (ctx: ServerContext): void => {
  ctx.route(ctx.app, catalogue.getControlSwitch, ({ c }) => readPaySwitch(ctx.db, c.req.header('User-Agent') ?? ''))
}
