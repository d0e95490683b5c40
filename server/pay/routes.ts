// Package endpoints: meal types (loaded by the client at startup), the meal lists, coupons,
// orders and their payment with star coins (the providers' payments: h5-gateway.ts), the order list and cancelling,
// package upgrades.
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { PAGES, pageOf } from '../../worker/protocol/paging.ts'
import type { ServerContext } from '../context.ts'
import {
  bestFirst, cancelOrder, createOrder, effectiveCoupons, expireStale, findOrder, mealToWire, orderToWire, payStatusOf,
  spendStarCoins, upgradeOptions, createUpgradeOrder,
} from './pay-service.ts'
import { requireBuyAllowed } from './pay-switch.ts'
import { payDb } from './tables.ts'
import { FinishPay, isUnpaid, UNPAID_STATES } from '../../worker/protocol/domain.ts'

export const registerPayRoutes = (ctx: ServerContext): void => {
  const { app, route, hub } = ctx
  const db = payDb(ctx.db)

  route(app, catalogue.mealTypeList, async () => {
    const rows = await db.selectFrom('meal_types').selectAll().orderBy('sort').orderBy('id').execute()
    return rows.map((r) => ({
      phoneType: r.phone_type,
      phoneTypeName: r.phone_type_name,
      androidVersion: r.android_version,
      previewUrl: r.preview_url,
    }))
  })

  route(app, catalogue.getMealList, async ({ c }) => {
    const phoneType = c.req.query('phoneType')
    let query = db.selectFrom('meals').selectAll().orderBy('sort').orderBy('id')
    if (phoneType) query = query.where('phone_type', '=', phoneType)
    return { mealList: (await query.execute()).map(mealToWire) }
  })

  route(app, catalogue.getUserCouponSort, async ({ payload, user }) => {
    const rows = await effectiveCoupons(db, user.id, Date.now()).orderBy('id').execute()
    return bestFirst(rows, payload.payAmount)
  })

  route(app, catalogue.orderCreate, async ({ payload, user, c }) => {
    await requireBuyAllowed(ctx.db, c.req.header('User-Agent') ?? '', payload)
    return createOrder(db, user, payload)
  })
  route(app, catalogue.starCoinsSpend, ({ payload, user }) => spendStarCoins(db, hub, user, payload.myOrderNum))
  route(app, catalogue.getPayStatus, async ({ payload, user }) => payStatusOf((await findOrder(db, user, payload.myOrderNum)).finish_pay))
  route(app, catalogue.getSystemTime, () => Date.now())
  route(app, catalogue.orderDetail, async ({ payload, user }) => orderToWire(await findOrder(db, user, payload.myOrderNum)))

  route(app, catalogue.qryDegreeOrder, async ({ payload, user }) => {
    await expireStale(db)
    const { limit, offset } = pageOf(payload, PAGES.orders)
    let query = db.selectFrom('orders').where('user_id', '=', user.id)
    if (payload.buyType != null) query = query.where('buy_type', '=', payload.buyType)
    if (payload.finishPay === FinishPay.unpaid) query = query.where('finish_pay', 'in', UNPAID_STATES)
    else if (payload.finishPay != null) query = query.where('finish_pay', '=', payload.finishPay)
    const { n } = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()
    const rows = await query.selectAll().orderBy('ctime', 'desc').orderBy('id', 'desc')
      .limit(limit).offset(offset).execute()
    return { list: rows.map(orderToWire), total: Number(n) }
  })

  route(app, catalogue.getChangePackageList, ({ payload, user }) => upgradeOptions(db, user, payload.userCardId))
  route(app, catalogue.selectReplaceCloud, ({ payload, user }) => createUpgradeOrder(db, user, payload.userCardId, payload.phoneType))

  route(app, catalogue.cancelOrderHandle, async ({ payload, user }) => {
    const order = await findOrder(db, user, payload.myOrderNum)
    return isUnpaid(order.finish_pay)
  })
  route(app, catalogue.cancelOrder, async ({ payload, user }) => {
    await cancelOrder(db, user, payload.myOrderNum)
    return true
  })
}
