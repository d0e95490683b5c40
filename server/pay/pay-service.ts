// Orders over the database: create with the shared pricing rules, pay with star coins or the simulated Alipay QR,
// settle (fulfil: new devices for a purchase, longer validity for a renewal, star coins granted, list refreshed).
import { sql } from 'kysely'
import { MAX_DEVICES_PER_ACCOUNT } from '../../worker/protocol/constants.ts'
import { DEVICE_NAME_RULE, isDeviceName } from '../../worker/protocol/validators.ts'
import type { Meal, Order, OrderCreateRequest, PayStatus } from '../../worker/protocol/pay.ts'
import {
  couponApplies, couponDeductionCents, formatYuan, payableCents, starCoinPrice, subtotalCents,
  tierOfPhoneType, dailyCents, upgradeCents, toCents, MIN_PAYABLE_CENTS, STAR_COINS_PER_YUAN,
} from '../../worker/protocol/pricing.ts'
import type { AuthUser, PushHub } from '../context.ts'
import { DomainError, notFound, Status } from '../http/errors.ts'
import type { MealsTable } from '../db/schema.ts'
import type { AccountDb, CouponsTable } from '../account/tables.ts'
import { starCoinBalance, STAR_COIN_GOT, STAR_COIN_USED } from '../account/routes.ts'
import type { OrdersTable, PayDb } from './tables.ts'
import { lockDeviceOwner, nextUserCardIds } from '../db/row-locks.ts'
import { deviceNotFoundOrNotYours } from '../devices/access.ts'
import type { Selectable } from 'kysely'
import { BuyType, FinishPay, isUnpaid, minutesLeft, UNPAID_STATES } from '../../worker/protocol/domain.ts'

/** How long an unpaid order stays open (ours; the old client only shows a countdown to closeTime). */
export const ORDER_OPEN_MS = 15 * 60_000
const DAY_MS = 24 * 60 * 60_000

export const PayErrors = {
  mealMissing: () => notFound('套餐'),
  orderMissing: () => notFound('订单'),
  tooMany: (left: number) => new DomainError(Status.forbidden, `每个账号最多${MAX_DEVICES_PER_ACCOUNT}台云手机，当前最多还可购买${left}台`),
  quantity: () => new DomainError(Status.invalidPayload, '购买数量不正确'),
  deviceName: () => new DomainError(Status.invalidPayload, DEVICE_NAME_RULE),
  couponUnusable: () => new DomainError(Status.forbidden, '该优惠券不可用于本订单'),
  notPayable: () => new DomainError(Status.forbidden, '订单已关闭或已支付'),
  starCoinNoCoupon: () => new DomainError(Status.forbidden, '星币支付不可使用优惠券'),
  starCoinShort: (need: number, have: number) => new DomainError(Status.forbidden, `星币余额不足（需要${need}星币，当前${have}星币）`),
  renewDevices: () => new DomainError(Status.forbidden, '请选择要续费的云手机'),
  renewNotOwner: () => new DomainError(Status.forbidden, '只能为自己的云手机续费（已授权给他人的云手机不可续费）'),
  renewMixed: () => new DomainError(Status.forbidden, '批量续费仅限同一类型的云手机'),
  renewMealMismatch: () => new DomainError(Status.forbidden, '该套餐不适用于所选云手机'),
  upgradeNotOwner: () => new DomainError(Status.forbidden, '只能升级自己的云手机（已授权的云手机不可升级）'),
  upgradeExpired: () => new DomainError(Status.forbidden, '云手机已过期，请先续费'),
  upgradeUnavailable: () => new DomainError(Status.forbidden, '该云手机暂无可升级的套餐'),
  orderStale: () => new StaleOrderError(),
} as const

/** The devices of a renewal or upgrade changed since it was ordered (renewed, upgraded, transferred, authorised,
 * replaced): the order can no longer be fulfilled as priced. */
export class StaleOrderError extends DomainError {
  constructor() {
    super(Status.forbidden, '云手机状态已变化（已续费、升级、转移或授权），该订单已失效，请重新下单')
  }
}

/** What settlement re-checks a device of a renewal or upgrade against: its state when the order was made. */
interface TargetSnapshot {
  readonly userCardId: number
  readonly phoneType: string
  readonly tier: string
  readonly expiresAt: number
}

const snapshotOf = (rows: ReadonlyArray<{ user_card_id: number; phone_type: string; buy_vip_type: string; expires_at: Date | string }>): string =>
  JSON.stringify(rows.map((r): TargetSnapshot => ({
    userCardId: r.user_card_id, phoneType: r.phone_type, tier: r.buy_vip_type, expiresAt: new Date(r.expires_at).getTime(),
  })))

const parseSnapshot = (text: string): ReadonlyArray<TargetSnapshot> => (text === '' ? [] : (JSON.parse(text) as TargetSnapshot[]))

type MealRow = Selectable<MealsTable>
export type OrderRow = Selectable<OrdersTable>

export const mealToWire = (m: MealRow): Meal => ({
  id: m.id, phoneType: m.phone_type, mealName: m.meal_name, buyVipType: tierOfPhoneType(m.phone_type), day: m.day,
  actualPrice: m.actual_price, originalPrice: m.original_price, preferentialContent: m.preferential_content,
  customStatement: m.custom_statement || '不限次数', giveStarNum: m.give_star_num, support: m.support,
  renewalType: m.renewal_type, remainQuantity: m.remain_quantity, phoneRemainQuantity: -1,
  menuAddedService: [{ serviceName: '一键换机' }, { serviceName: '修改云机参数' }, { serviceName: 'ROOT开关' }, { serviceName: '云机摄像头' }],
})

export const couponToWire = (c: Selectable<CouponsTable>) => ({
  id: c.id, couponName: c.coupon_name, couponType: c.coupon_type, couponValue: Number(c.coupon_value),
  deductionPrice: Number(c.deduction_price), maxValue: Number(c.max_value ?? 0), batchBuy: c.batch_buy,
})

/** Coupons a new order may take: mine, unused, not held by another order, within their validity. */
export const effectiveCoupons = (db: PayDb, userId: number, now: number) =>
  db.selectFrom('account_coupons').selectAll().where('user_id', '=', userId).where('used_at', 'is', null)
    .where('locked_order', 'is', null).where('start_time', '<=', new Date(now)).where('end_time', '>=', new Date(now))

const csvNumbers = (csv: string): number[] =>
  csv.split(',').map((s) => s.trim()).filter((s) => /^\d+$/.test(s)).map(Number)

export const orderToWire = (o: OrderRow): Order => ({
  myOrderNum: o.my_order_num, description: o.description, quantity: o.quantity, buyType: o.buy_type,
  payType: o.pay_type, activationCode: '', starCoin: o.star_coin, totalAmount: formatYuan(o.total_cents),
  ctime: new Date(o.ctime).getTime(), closeTime: new Date(o.close_time).getTime(), giveStarNum: o.give_star_num,
  preferentialContent: o.preferential_content, finishPay: o.finish_pay,
  finishTime: o.finish_time ? new Date(o.finish_time).getTime() : null, userCardIds: csvNumbers(o.user_card_ids),
})

const pad = (n: number, w = 2): string => String(n).padStart(w, '0')
const newOrderNum = (now: number): string => {
  const d = new Date(now)
  const stamp = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`
  return `${stamp}${pad(Math.floor(Math.random() * 1_000_000), 6)}`
}

/** Devices the user owns (authorised-to-me devices are not theirs). */
export const ownedCount = async (db: PayDb, userId: number): Promise<number> =>
  Number((await db.selectFrom('devices').select((eb) => eb.fn.countAll<string>().as('n')).where('owner_id', '=', userId).executeTakeFirstOrThrow()).n)

/** Unpaid or paying orders past closeTime become expired and give their coupon back. */
export const expireStale = (db: PayDb, now = Date.now()): Promise<void> =>
  db.transaction().execute(async (trx) => {
    const stale = await trx.updateTable('orders').set({ finish_pay: FinishPay.expired })
      .where('finish_pay', 'in', UNPAID_STATES).where('close_time', '<', new Date(now)).returning('my_order_num').execute()
    if (stale.length > 0) await releaseCoupons(trx, stale.map((s) => s.my_order_num))
  })

const releaseCoupons = async (db: PayDb, orderNums: ReadonlyArray<string>): Promise<void> => {
  await db.updateTable('account_coupons').set({ locked_order: null }).where('used_at', 'is', null).where('locked_order', 'in', orderNums).execute()
}

/** Devices to renew: all mine, none authorised to someone else, one tier, the meal's phone type. */
const renewTargets = async (db: PayDb, user: AuthUser, ids: ReadonlyArray<number>, meal: MealRow) => {
  if (ids.length === 0) throw PayErrors.renewDevices()
  const rows = await db.selectFrom('devices').select(['id', 'user_card_id', 'owner_id', 'buy_vip_type', 'phone_type', 'disk_name', 'expires_at'])
    .where('user_card_id', 'in', ids).execute()
  if (rows.length !== new Set(ids).size || rows.some((r) => r.owner_id !== user.id)) throw PayErrors.renewNotOwner()
  const authorised = await db.selectFrom('device_auths').select('device_id').where('device_id', 'in', rows.map((r) => r.id)).execute()
  if (authorised.length > 0) throw PayErrors.renewNotOwner()
  if (new Set(rows.map((r) => r.buy_vip_type)).size > 1) throw PayErrors.renewMixed()
  if (rows.some((r) => r.phone_type !== meal.phone_type)) throw PayErrors.renewMealMismatch()
  return rows
}

/** The names a purchase gives its new devices (csv, in order; an empty entry or none gets the default name): each one
 * follows the shared device-name rule, at most one per device bought; stored trimmed. */
const deviceNamesOf = (csv: string | undefined, quantity: number): string => {
  if (csv === undefined || csv.trim() === '') return ''
  const names = csv.split(',').map((n) => n.trim())
  if (names.length > quantity || names.some((n) => n !== '' && !isDeviceName(n))) throw PayErrors.deviceName()
  return names.join(',')
}

export const createOrder = async (db: PayDb, user: AuthUser, req: OrderCreateRequest, now = Date.now()): Promise<{ myOrderNum: string }> => {
  const meal = await db.selectFrom('meals').selectAll().where('id', '=', req.id).executeTakeFirst()
  if (!meal) throw PayErrors.mealMissing()
  const renew = req.buyType === BuyType.renew
  if (req.buyType !== BuyType.buy && !renew) throw new DomainError(Status.invalidPayload, '不支持的订单类型')
  let quantity = req.quantity
  let userCardIds = ''
  let targetsSnapshot = ''
  let diskNames = ''
  let description: string
  if (renew) {
    const targets = await renewTargets(db, user, csvNumbers(req.userCardIdStr ?? ''), meal)
    quantity = targets.length
    userCardIds = targets.map((t) => t.user_card_id).join(',')
    targetsSnapshot = snapshotOf(targets)
    description = `续费${meal.meal_name}×${quantity}`
  } else {
    if (!Number.isInteger(quantity) || quantity < 1) throw PayErrors.quantity()
    diskNames = deviceNamesOf(req.diskName, quantity)
    const left = Math.max(0, MAX_DEVICES_PER_ACCOUNT - (await ownedCount(db, user.id)))
    if (quantity > left) throw PayErrors.tooMany(left)
    description = `购买${meal.meal_name}×${quantity}`
  }
  const wireMeal = mealToWire(meal)
  let coupon: ReturnType<typeof couponToWire> | null = null
  if (req.couponId != null) {
    const row = await effectiveCoupons(db, user.id, now).where('id', '=', req.couponId).executeTakeFirst()
    if (!row) throw PayErrors.couponUnusable()
    coupon = couponToWire(row)
    const subtotal = subtotalCents(wireMeal, quantity)
    if (!couponApplies(wireMeal, coupon, quantity, 'alipayQr') || subtotal < Math.round(Number(row.min_amount) * 100)) throw PayErrors.couponUnusable()
  }
  const myOrderNum = newOrderNum(now)
  await db.transaction().execute(async (trx) => {
    if (coupon) {
      const held = await trx.updateTable('account_coupons').set({ locked_order: myOrderNum })
        .where('id', '=', coupon.id).where('locked_order', 'is', null).where('used_at', 'is', null).returning('id').execute()
      if (held.length !== 1) throw PayErrors.couponUnusable()
    }
    await trx.insertInto('orders').values({
      my_order_num: myOrderNum, user_id: user.id, buy_type: req.buyType, meal_id: meal.id, phone_type: meal.phone_type,
      android_version: req.androidVersion ?? '', tier: tierOfPhoneType(meal.phone_type), day: meal.day, quantity,
      coupon_id: coupon?.id ?? null, disk_names: diskNames, user_card_ids: userCardIds, description,
      total_cents: payableCents(wireMeal, quantity, coupon, 'alipayQr'), star_coin: starCoinPrice(wireMeal, quantity),
      give_star_num: meal.give_star_num * quantity, preferential_content: meal.preferential_content,
      ctime: new Date(now), close_time: new Date(now + ORDER_OPEN_MS), targets_snapshot: targetsSnapshot,
    }).execute()
  })
  return { myOrderNum }
}

const payableOrder = async (db: PayDb, user: AuthUser, myOrderNum: string, now: number): Promise<OrderRow> => {
  await expireStale(db, now)
  const order = await db.selectFrom('orders').selectAll().where('my_order_num', '=', myOrderNum).where('user_id', '=', user.id).executeTakeFirst()
  if (!order) throw PayErrors.orderMissing()
  if (!isUnpaid(order.finish_pay)) throw PayErrors.notPayable()
  return order
}

const addStarCoins = async (db: PayDb, userId: number, amount: number, description: string): Promise<void> => {
  await db.insertInto('account_star_coin_records').values({ user_id: userId, kind: STAR_COIN_GOT, amount, description }).execute()
}

export const spendStarCoins = async (db: PayDb, hub: PushHub, user: AuthUser, myOrderNum: string, now = Date.now()) => {
  const order = await payableOrder(db, user, myOrderNum, now)
  if (order.coupon_id != null) throw PayErrors.starCoinNoCoupon()
  await db.transaction().execute(async (trx) => {
    // serialise spenders of this user: the balance is a sum over records, checked then written in one transaction
    await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute()
    await recheckTargets(trx, order)
    const have = await starCoinBalance(trx as unknown as AccountDb, user.id)
    if (have < order.star_coin) throw PayErrors.starCoinShort(order.star_coin, have)
    await trx.insertInto('account_star_coin_records').values({
      user_id: user.id, kind: STAR_COIN_USED, amount: order.star_coin, description: `星币支付：${order.description}`,
    }).execute()
    await fulfil(trx, order, 4, now)
  }).catch(async (error: unknown) => {
    // nothing was spent (the transaction rolled back); the order cannot be paid any more
    if (error instanceof StaleOrderError) await closeOrder(db, order, ORDER_CANCELLED, now)
    throw error
  })
  await notify(db, hub, order.user_id)
  return { myOrderNum, starCoin: order.star_coin }
}

/**
 * The Alipay QR of an order: `codeFor` gives its content (the payment provider's page for this order: on the reference
 * server the demo gateway's, server/pay/h5-gateway.ts), which is kept with the order; the order is then being paid.
 */
export const precreate = async (db: PayDb, user: AuthUser, myOrderNum: string, codeFor: (order: OrderRow) => Promise<string>, now = Date.now()) => {
  const order = await payableOrder(db, user, myOrderNum, now)
  const qrCode = await codeFor(order)
  if (order.qr_code !== qrCode || order.finish_pay !== FinishPay.paying) {
    await db.updateTable('orders').set({ qr_code: qrCode, finish_pay: FinishPay.paying }).where('id', '=', order.id).execute()
  }
  return { myOrderNum, qrCode, totalAmount: formatYuan(order.total_cents), closeTime: new Date(order.close_time).getTime() }
}

export const payStatusOf = (finishPay: number): PayStatus =>
  finishPay === FinishPay.paid ? 1 : finishPay === FinishPay.paying ? 3 : finishPay === FinishPay.unpaid ? 0 : 2

export const findOrder = async (db: PayDb, user: AuthUser, myOrderNum: string, now = Date.now()): Promise<OrderRow> => {
  await expireStale(db, now)
  const order = await db.selectFrom('orders').selectAll().where('my_order_num', '=', myOrderNum).where('user_id', '=', user.id).executeTakeFirst()
  if (!order) throw PayErrors.orderMissing()
  return order
}

export const cancelOrder = async (db: PayDb, user: AuthUser, myOrderNum: string, now = Date.now()): Promise<void> => {
  const order = await payableOrder(db, user, myOrderNum, now)
  await closeOrder(db, order, ORDER_CANCELLED, now)
}

/** The payment provider's answer (the ops command or the reference gateway): success fulfils, fail closes the order.
 * payType: 9 Alipay (the default), 10 WeChat. */
export const settle = async (db: PayDb, hub: PushHub, myOrderNum: string, success: boolean, now = Date.now(), payType = 9): Promise<Order> => {
  await expireStale(db, now)
  const order = await db.selectFrom('orders').selectAll().where('my_order_num', '=', myOrderNum).executeTakeFirst()
  if (!order) throw PayErrors.orderMissing()
  if (!isUnpaid(order.finish_pay)) throw PayErrors.notPayable()
  if (success) {
    try {
      await db.transaction().execute((trx) => fulfil(trx, order, payType, now))
      await notify(db, hub, order.user_id)
    } catch (error) {
      // the money came in for devices that are no longer as ordered: nothing is granted, the order is marked refunded
      if (!(error instanceof StaleOrderError)) throw error
      await closeOrder(db, order, ORDER_REFUNDED, now)
    }
  } else {
    await closeOrder(db, order, ORDER_FAILED, now)
  }
  return orderToWire(await db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow())
}

const ORDER_FAILED = 3
const ORDER_CANCELLED = 5
const ORDER_REFUNDED = 6

/** Ends an open order (failed, cancelled, refunded) and gives its coupon back, both or neither. */
const closeOrder = (db: PayDb, order: OrderRow, finishPay: number, now: number): Promise<void> =>
  db.transaction().execute(async (trx) => {
    const closed = await trx.updateTable('orders').set({ finish_pay: finishPay, finish_time: new Date(now) })
      .where('id', '=', order.id).where('finish_pay', 'in', [0, 2]).returning('id').execute()
    if (closed.length === 1) await releaseCoupons(trx, [order.my_order_num])
  })

/**
 * Inside the settling transaction, with the devices locked: a renewal's or upgrade's devices are still the owner's,
 * authorised to no one, of the phone type and tier they had when ordered; an upgrade's price, recomputed from the
 * device's current expiry as of the order time, is still what was charged.
 */
const recheckTargets = async (trx: PayDb, order: OrderRow): Promise<void> => {
  if (order.buy_type !== BuyType.renew && order.buy_type !== BuyType.upgrade) return
  const ids = csvNumbers(order.user_card_ids)
  const rows = await trx.selectFrom('devices').selectAll().where('user_card_id', 'in', ids).orderBy('id').forUpdate().execute()
  if (rows.length !== new Set(ids).size || rows.some((r) => r.owner_id !== order.user_id)) throw PayErrors.orderStale()
  const auths = await trx.selectFrom('device_auths').select('id').where('device_id', 'in', rows.map((r) => r.id)).execute()
  if (auths.length > 0) throw PayErrors.orderStale()
  const snapshot = parseSnapshot(order.targets_snapshot)
  for (const device of rows) {
    const was = snapshot.find((w) => w.userCardId === device.user_card_id)
    if (was && (was.phoneType !== device.phone_type || was.tier !== device.buy_vip_type)) throw PayErrors.orderStale()
    if (order.buy_type === BuyType.renew && device.phone_type !== order.phone_type) throw PayErrors.orderStale()
    if (order.buy_type === BuyType.upgrade) {
      const minutes = minutesLeft(new Date(device.expires_at), new Date(order.ctime).getTime())
      const cents = await upgradePriceCents(trx, device.phone_type, order.phone_type, minutes)
      if (cents !== order.total_cents) throw PayErrors.orderStale()
    }
  }
}

const fulfil = async (trx: PayDb, order: OrderRow, payType: number, now: number): Promise<void> => {
  const paid = await trx.updateTable('orders').set({ finish_pay: FinishPay.paid, pay_type: payType, finish_time: new Date(now) })
    .where('id', '=', order.id).where('finish_pay', 'in', [0, 2]).returning('id').execute()
  // PGlite reports no affected-row count: returning() tells whether this call won the order
  if (paid.length !== 1) throw PayErrors.notPayable()
  await recheckTargets(trx, order)
  const span = order.day * DAY_MS
  let userCardIds = order.user_card_ids
  if (order.buy_type === BuyType.upgrade) {
    const device = await trx.selectFrom('devices').select(['id', 'android_version']).where('user_card_id', 'in', csvNumbers(order.user_card_ids)).executeTakeFirst()
    if (device) {
      const versions = await trx.selectFrom('meal_types').select(['android_version', 'preview_url'])
        .where('phone_type', '=', order.phone_type).orderBy('sort').execute()
      const keep = versions.find((v) => v.android_version === device.android_version) ?? versions[0]
      await trx.updateTable('devices').set({
        phone_type: order.phone_type, buy_vip_type: order.tier,
        android_version: keep?.android_version ?? device.android_version, preview_url: keep?.preview_url ?? 'default',
      }).where('id', '=', device.id).execute()
    }
  } else if (order.buy_type === BuyType.renew) {
    for (const id of csvNumbers(order.user_card_ids)) {
      await trx.updateTable('devices')
        .set({ expires_at: sql<Date>`greatest(expires_at, ${new Date(now)}::timestamptz) + ${`${order.day} days`}::interval` })
        .where('user_card_id', '=', id).execute()
    }
  } else {
    await lockDeviceOwner(trx, order.user_id)
    const left = MAX_DEVICES_PER_ACCOUNT - (await ownedCount(trx, order.user_id))
    if (order.quantity > left) throw PayErrors.tooMany(Math.max(0, left))
    const type = await trx.selectFrom('meal_types').select('preview_url')
      .where('phone_type', '=', order.phone_type).where('android_version', '=', order.android_version).executeTakeFirst()
    const fallback = await trx.selectFrom('meal_types').select(['android_version', 'preview_url'])
      .where('phone_type', '=', order.phone_type).orderBy('sort').executeTakeFirst()
    const names = order.disk_names.split(',').map((s) => s.trim())
    const ids = await nextUserCardIds(trx, order.quantity)
    await trx.insertInto('devices').values(ids.map((id, i) => ({
      user_card_id: id, owner_id: order.user_id, disk_name: names[i] && isDeviceName(names[i]) ? names[i] : `云手机-${id}`, buy_vip_type: order.tier,
      expires_at: new Date(now + span), room: '华东一区', free_trial: 0, phone_type: order.phone_type,
      android_version: type ? order.android_version : (fallback?.android_version ?? order.android_version),
      preview_url: type?.preview_url ?? fallback?.preview_url ?? 'default',
    }))).execute()
    userCardIds = ids.join(',')
    await trx.updateTable('orders').set({ user_card_ids: userCardIds }).where('id', '=', order.id).execute()
  }
  if (order.coupon_id != null) await trx.updateTable('account_coupons').set({ used_at: new Date(now) }).where('id', '=', order.coupon_id).execute()
  if (order.give_star_num > 0) await addStarCoins(trx, order.user_id, order.give_star_num, `${order.description}赠送`)
}

const notify = async (db: PayDb, hub: PushHub, userId: number): Promise<void> => {
  const user = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst()
  if (user) await hub.send(user.username, { type: 'refreshCloudPhoneList', data: null })
}

/** The user's coupons, the one taking most off `payAmount` (yuan) first. */
export const bestFirst = (rows: ReadonlyArray<Selectable<CouponsTable>>, payAmount: number) => {
  const cents = Math.round(payAmount * 100)
  return rows.filter((r) => cents >= Math.round(Number(r.min_amount) * 100)).map(couponToWire)
    .map((c, i) => ({ c, i, off: couponDeductionCents(c, cents) }))
    .sort((a, b) => b.off - a.off || a.i - b.i)
    .map((x) => x.c)
}

/** The devices an upgrade may target: mine, not authorised either way, not expired. */
const upgradeTarget = async (db: PayDb, user: AuthUser, userCardId: number, now: number) => {
  const device = await db.selectFrom('devices').selectAll().where('user_card_id', '=', userCardId).executeTakeFirst()
  // a device that does not exist and a stranger's get the one answer of the device endpoints (devices/access.ts)
  if (!device) throw deviceNotFoundOrNotYours()
  if (device.owner_id !== user.id) {
    const grant = await db.selectFrom('device_auths').select('id').where('device_id', '=', device.id).where('grantee_id', '=', user.id).executeTakeFirst()
    throw grant ? PayErrors.upgradeNotOwner() : deviceNotFoundOrNotYours()
  }
  const auth = await db.selectFrom('device_auths').select('id').where('device_id', '=', device.id).executeTakeFirst()
  if (auth) throw PayErrors.upgradeNotOwner()
  const left = minutesLeft(new Date(device.expires_at), now)
  if (left <= 0) throw PayErrors.upgradeExpired()
  return { device, minutesLeft: left }
}

/** The price of upgrading a device from one phone type to another with `minutesLeft` to run, in cents (what the
 * order is charged: the displayed yuan amount), or null when it is no upgrade. */
const upgradePriceCents = async (db: PayDb, fromType: string, toType: string, minutesLeft: number): Promise<number | null> => {
  const meals = (await db.selectFrom('meals').selectAll().where('phone_type', 'in', [fromType, toType]).execute()).map(mealToWire)
  const current = dailyCents(meals.filter((m) => m.phoneType === fromType))
  const target = dailyCents(meals.filter((m) => m.phoneType === toType))
  const cents = current === null || target === null ? null : upgradeCents(current, target, minutesLeft)
  return cents === null ? null : (toCents(formatYuan(cents)) ?? MIN_PAYABLE_CENTS)
}

export const upgradeOptions = async (db: PayDb, user: AuthUser, userCardId: number, now = Date.now()) => {
  const { device, minutesLeft } = await upgradeTarget(db, user, userCardId, now)
  const types = await db.selectFrom('meal_types').select(['phone_type', 'phone_type_name']).orderBy('sort').execute()
  const seen = new Set<string>()
  const out: Array<{ phoneType: string; phoneTypeName: string; buyVipType: string; days: number; upgradePrice: string }> = []
  for (const t of types) {
    if (seen.has(t.phone_type) || t.phone_type === device.phone_type) continue
    seen.add(t.phone_type)
    const cents = await upgradePriceCents(db, device.phone_type, t.phone_type, minutesLeft)
    if (cents === null) continue
    out.push({ phoneType: t.phone_type, phoneTypeName: t.phone_type_name, buyVipType: tierOfPhoneType(t.phone_type), days: Math.ceil(minutesLeft / 1440), upgradePrice: formatYuan(cents) })
  }
  return out
}

/** An upgrade order for one device (buyType 3), paid like any other order. */
export const createUpgradeOrder = async (db: PayDb, user: AuthUser, userCardId: number, phoneType: string, now = Date.now()) => {
  const option = (await upgradeOptions(db, user, userCardId, now)).find((o) => o.phoneType === phoneType)
  if (!option) throw PayErrors.upgradeUnavailable()
  const { device } = await upgradeTarget(db, user, userCardId, now)
  const meal = await db.selectFrom('meals').select('id').where('phone_type', '=', phoneType).orderBy('day', 'desc').executeTakeFirst()
  if (!meal) throw PayErrors.upgradeUnavailable()
  const cents = toCents(option.upgradePrice) ?? MIN_PAYABLE_CENTS
  const myOrderNum = newOrderNum(now)
  await db.insertInto('orders').values({
    my_order_num: myOrderNum, user_id: user.id, buy_type: BuyType.upgrade, meal_id: meal.id, phone_type: phoneType,
    android_version: device.android_version, tier: option.buyVipType, day: 0, quantity: 1, coupon_id: null,
    disk_names: device.disk_name, user_card_ids: String(userCardId),
    description: `升级${device.disk_name}为${option.phoneTypeName}`, total_cents: cents,
    star_coin: Math.ceil((cents * STAR_COINS_PER_YUAN) / 100), give_star_num: 0, preferential_content: '',
    ctime: new Date(now), close_time: new Date(now + ORDER_OPEN_MS), targets_snapshot: snapshotOf([device]),
  }).execute()
  return { myOrderNum }
}
