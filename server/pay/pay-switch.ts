// The payment switch (§3): per-OS buy switches and payTips from the system configuration, with the caller's osName
// derived from its User-Agent (the client's own guess is only a fallback).
import type { Kysely } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { PaySwitch } from '../../worker/protocol/pay.ts'
import { BATCH_CLOSED_TEXT, buyRefusal, isBatchOrder, osNameOf } from '../../worker/protocol/pay-switch.ts'
import type { ServerContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { DomainError, Status } from '../http/errors.ts'
import { readSwitch } from '../system/switches.ts'

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

/**
 * The switches the screens follow, enforced: an order is refused while the buy switch of the caller's OS is off (with
 * payTips, as the screen shows it) and, for more than one device at once, while the batch switch is off. The OS is the
 * one getControlSwitch reports to the tab: from the User-Agent, which the tab (and its worker) sends with every call;
 * the spec's headers (client, versionName, merchantSign, channelCode) carry none.
 */
export const requireBuyAllowed = async (
  db: Kysely<Database>, userAgent: string, order: { buyType: number; quantity: number; userCardIdStr?: string | undefined },
): Promise<void> => {
  const sw = await readPaySwitch(db, userAgent)
  const refusal = buyRefusal(sw, sw.osName)
  if (refusal !== null) throw new DomainError(Status.forbidden, refusal)
  if (isBatchOrder(order) && !(await readSwitch(db, 'batch'))) throw new DomainError(Status.forbidden, BATCH_CLOSED_TEXT)
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
