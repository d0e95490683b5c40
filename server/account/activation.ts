// Exchanging an activation code: coupon codes give a coupon, package codes a new device of the meal, device codes
// add days to a device the user picks (or make a first device when the user owns none). A code is claimed once,
// inside the transaction that grants what it gives.
import { sql, type Selectable, type Transaction } from 'kysely'
import { ActivationCodeType, DeviceCodeStatus, type ExchangeResponse } from '../../worker/protocol/account.ts'
import { MAX_DEVICES_PER_ACCOUNT } from '../../worker/protocol/constants.ts'
import type { Database } from '../db/schema.ts'
import { lockDeviceOwner, nextUserCardIds } from '../db/row-locks.ts'
import { DomainError } from '../http/errors.ts'
import { AccountMsg, AccountStatus } from './messages.ts'
import { isActivationCode, normaliseCode } from '../../worker/protocol/validators.ts'
import type { AccountDb, AccountTables, ActivationCodesTable } from './tables.ts'

const DAY_MS = 86_400_000
type Trx = Transaction<Database & AccountTables>
type CodeRow = Selectable<ActivationCodesTable>

/** What the caller must tell the user's tabs afterwards. */
export interface ExchangeOutcome {
  readonly response: ExchangeResponse
  readonly devicesChanged: boolean
  readonly couponAdded: boolean
}

/** The code row if it can still be used now; every other case is a Chinese refusal. */
const usableCode = async (trx: Trx, raw: string, now: number): Promise<CodeRow> => {
  const code = normaliseCode(raw)
  if (!isActivationCode(code)) throw new DomainError(AccountStatus.codeFormat, AccountMsg.codeFormat)
  // row lock: two exchanges of one code wait for each other, the second sees it used
  const row = await trx.selectFrom('account_activation_codes').selectAll().where('code', '=', code).forUpdate().executeTakeFirst()
  if (!row) throw new DomainError(AccountStatus.codeUnknown, AccountMsg.codeUnknown)
  if (row.used_at !== null) throw new DomainError(AccountStatus.codeUsed, AccountMsg.codeUsed)
  if (new Date(row.expires_at).getTime() < now) throw new DomainError(AccountStatus.codeExpired, AccountMsg.codeExpired)
  return row
}

const claim = (trx: Trx, code: string, userId: number, now: number) =>
  trx.updateTable('account_activation_codes').set({ used_by: userId, used_at: new Date(now) }).where('code', '=', code).execute()

const ownedCount = async (trx: Trx, userId: number): Promise<number> => {
  const { n } = await trx.selectFrom('devices').select(sql<number>`count(*)::int`.as('n')).where('owner_id', '=', userId).executeTakeFirstOrThrow()
  return Number(n)
}

/** A new device of the phone type (its first Android version) for `days`, named after the owner's count. */
const createDevice = async (trx: Trx, userId: number, phoneType: string | null, days: number, now: number): Promise<string> => {
  await lockDeviceOwner(trx, userId)
  const count = await ownedCount(trx, userId)
  if (count >= MAX_DEVICES_PER_ACCOUNT) throw new DomainError(AccountStatus.deviceLimit, AccountMsg.deviceLimit)
  let typeQuery = trx.selectFrom('meal_types').selectAll().orderBy('sort').orderBy('id')
  if (phoneType) typeQuery = typeQuery.where('phone_type', '=', phoneType)
  const type = await typeQuery.executeTakeFirstOrThrow()
  const [userCardId] = await nextUserCardIds(trx, 1)
  const diskName = `云手机-${String(count + 1).padStart(2, '0')}`
  await trx.insertInto('devices').values({
    user_card_id: userCardId!, owner_id: userId, disk_name: diskName, buy_vip_type: 'VIP',
    expires_at: new Date(now + days * DAY_MS), room: '华东一区', free_trial: 0,
    phone_type: type.phone_type, android_version: type.android_version, preview_url: type.preview_url,
  }).execute()
  return diskName
}

export const exchangeCode = (db: AccountDb, userId: number, raw: string, now = Date.now()): Promise<ExchangeOutcome> =>
  db.transaction().execute(async (trx) => {
    const row = await usableCode(trx, raw, now)
    switch (row.code_type) {
      case ActivationCodeType.coupon: {
        const name = row.coupon_name ?? '优惠券'
        await trx.insertInto('account_coupons').values({
          user_id: userId, coupon_name: name, coupon_type: row.coupon_type ?? 1,
          coupon_value: row.coupon_value ?? 0, deduction_price: row.deduction_price ?? 0,
          min_amount: 0, batch_buy: false, start_time: new Date(now),
          end_time: new Date(now + (row.coupon_valid_days ?? 30) * DAY_MS), source: `activation:${row.code}`,
        }).execute()
        await claim(trx, row.code, userId, now)
        return { response: { codeType: row.code_type, status: DeviceCodeStatus.done, couponName: name }, devicesChanged: false, couponAdded: true }
      }
      case ActivationCodeType.package: {
        const meal = row.meal_id === null ? undefined
          : await trx.selectFrom('meals').selectAll().where('id', '=', row.meal_id).executeTakeFirst()
        if (!meal) throw new DomainError(AccountStatus.codeUnknown, AccountMsg.codeUnknown)
        const diskName = await createDevice(trx, userId, meal.phone_type, meal.day, now)
        await claim(trx, row.code, userId, now)
        return {
          response: { codeType: row.code_type, status: DeviceCodeStatus.done, mealName: meal.meal_name, days: meal.day, diskName },
          devicesChanged: true, couponAdded: false,
        }
      }
      default: {
        // a device code: the user picks which of their devices gets the days; a user without devices gets one
        if ((await ownedCount(trx, userId)) > 0) {
          return { response: { codeType: row.code_type, status: DeviceCodeStatus.chooseDevice, days: row.days }, devicesChanged: false, couponAdded: false }
        }
        const diskName = await createDevice(trx, userId, null, row.days, now)
        await claim(trx, row.code, userId, now)
        return { response: { codeType: row.code_type, status: DeviceCodeStatus.done, days: row.days, diskName }, devicesChanged: true, couponAdded: false }
      }
    }
  })

/** The second step of a device code: extend the chosen own device (from now when it has expired). */
export const applyDeviceCode = (db: AccountDb, userId: number, raw: string, userCardId: number, now = Date.now()) =>
  db.transaction().execute(async (trx) => {
    const row = await usableCode(trx, raw, now)
    if (row.code_type !== ActivationCodeType.device) throw new DomainError(AccountStatus.codeNotDevice, AccountMsg.codeNotDevice)
    const device = await trx.selectFrom('devices').select(['id', 'disk_name', 'expires_at'])
      .where('user_card_id', '=', userCardId).where('owner_id', '=', userId).executeTakeFirst()
    if (!device) throw new DomainError(AccountStatus.deviceNotOwned, AccountMsg.deviceNotOwned)
    const from = Math.max(now, new Date(device.expires_at).getTime())
    await trx.updateTable('devices').set({ expires_at: new Date(from + row.days * DAY_MS) }).where('id', '=', device.id).execute()
    await claim(trx, row.code, userId, now)
    return { diskName: device.disk_name, days: row.days }
  })
