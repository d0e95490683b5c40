// Alipay H5, WeChat H5 and the Alipay QR on the reference server. A real backend returns the provider's page (or QR
// content); this one returns its own simulated gateway page (clearly labelled as such) where the user confirms or
// cancels. The page then settles the order like the provider's notification would and sends the browser back to the
// app's /pages/order/status; a page reached by scanning the QR (another device, or another tab) says how it ended and
// leaves the app's pay-order page, which polls the status, to show the result.
// The page is reached by a top-level navigation without the app's token, so it is addressed by a one-use ticket.
import { createHash, randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { html } from 'hono/html'
import type { ColumnType, Kysely } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { BASE_PATH } from '../../worker/protocol/constants.ts'
import { formatYuan } from '../../worker/protocol/pricing.ts'
import type { AuthUser, ServerContext } from '../context.ts'
import { DomainError, Status } from '../http/errors.ts'
import { originOf } from '../http/origin.ts'
import { expireStale, findOrder, PayErrors, precreate, settle, type OrderRow } from './pay-service.ts'
import { payDb, type PayDb } from './tables.ts'
import type { Database } from '../db/schema.ts'
import { BuyType, FinishPay, isUnpaid } from '../../worker/protocol/domain.ts'

export interface PayGatewayTicketsTable {
  ticket: string
  my_order_num: string
  user_id: number
  channel: string
  created_at: ColumnType<Date, Date | undefined, never>
  used_at: ColumnType<Date | null, Date | undefined, Date>
}
type TicketDb = Kysely<Database & { pay_gateway_tickets: PayGatewayTicketsTable }>
/** The orders (through the pay module) and the tickets. */
interface GatewayDb { readonly pay: PayDb; readonly tickets: TicketDb }
const gatewayDb = (db: Kysely<Database>): GatewayDb => ({ pay: payDb(db), tickets: db.withTables<{ pay_gateway_tickets: PayGatewayTicketsTable }>() })

export type H5Channel = 'alipay' | 'wxpay'
/** The H5 channels, and the Alipay QR: its page is opened by scanning, so it does not send the browser into the app. */
type GatewayChannel = H5Channel | 'alipayQr'
const CHANNELS: Record<GatewayChannel, { name: string; payType: number; colour: string; scanned: boolean }> = {
  alipay: { name: '支付宝', payType: 9, colour: '#1677ff', scanned: false },
  wxpay: { name: '微信支付', payType: 10, colour: '#07c160', scanned: false },
  alipayQr: { name: '支付宝', payType: 9, colour: '#1677ff', scanned: true },
}
const channelOf = (name: string) => CHANNELS[name as GatewayChannel] ?? CHANNELS.alipay

/** Where the gateway lives; under /api so a dev server that proxies /api reaches it too. */
export const GATEWAY_PATH = '/api/pay/reference-gateway'

/** A one-use ticket for the gateway page of an order: the page's path. */
const gatewayPage = async (db: GatewayDb, user: AuthUser, myOrderNum: string, channel: GatewayChannel): Promise<string> => {
  const ticket = randomBytes(24).toString('base64url')
  await db.tickets.insertInto('pay_gateway_tickets').values({ ticket, my_order_num: myOrderNum, user_id: user.id, channel }).execute()
  return `${GATEWAY_PATH}/${ticket}`
}

/** Starts an H5 payment: the order becomes "paying" and gets a ticket for the gateway page. */
export const startH5Payment = async (db: GatewayDb, user: AuthUser, myOrderNum: string, channel: H5Channel) => {
  const order = await findOrder(db.pay, user, myOrderNum)
  if (!isUnpaid(order.finish_pay)) throw PayErrors.notPayable()
  const payUrl = await gatewayPage(db, user, myOrderNum, channel)
  if (order.finish_pay !== FinishPay.paying) await db.pay.updateTable('orders').set({ finish_pay: FinishPay.paying }).where('id', '=', order.id).where('finish_pay', '=', FinishPay.unpaid).execute()
  return { myOrderNum, payUrl }
}

/**
 * The Alipay QR's content: the absolute URL of the order's gateway page, so a phone camera (or another tab) that opens
 * it pays the order with no operator. Precreating again gives the same page while the order is open (its ticket is
 * spent only by paying or cancelling there, which closes the order).
 */
export const qrCodeFor = (db: GatewayDb, user: AuthUser, origin: string) => async (order: OrderRow): Promise<string> => {
  const prefix = `${origin}${GATEWAY_PATH}/`
  if (order.qr_code?.startsWith(prefix)) return order.qr_code
  return `${origin}${await gatewayPage(db, user, order.my_order_num, 'alipayQr')}`
}

/** The app's payment confirmation page for an order (upgrades report on their own results page). */
export const statusUrlOf = (myOrderNum: string, buyType: number): string =>
  `${BASE_PATH}#/pages/order/status?myOrderNum=${encodeURIComponent(myOrderNum)}${buyType === BuyType.upgrade ? '&next=upgrade' : ''}`

const page = (c: Context, title: string, body: ReturnType<typeof html>, status: 200 | 404 = 200) => {
  c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'")
  c.header('Cache-Control', 'no-store')
  c.header('Referrer-Policy', 'no-referrer')
  return c.html(html`<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body{margin:0;font-family:system-ui,"Noto Sans CJK SC",sans-serif;background:#f5f5f5;color:#333}
.ref{background:#fff7e6;color:#ad6800;border-bottom:1px solid #ffd591;padding:10px 16px;font-size:13px;line-height:1.5}
main{margin:16px;background:#fff;border-radius:12px;padding:20px 16px;text-align:center}
h1{font-size:18px;margin:0 0 6px}.amount{font-size:32px;font-weight:600;margin:12px 0}
.kv{display:flex;justify-content:space-between;gap:12px;font-size:13px;color:#666;padding:6px 0;text-align:left}
.kv span:last-child{color:#333;word-break:break-all;text-align:right}
form{display:flex;flex-direction:column;gap:10px;margin-top:20px}
button{font:inherit;font-size:16px;padding:12px;border-radius:8px;border:1px solid #ddd;background:#fff}
button.pay{color:#fff;border:none}a{display:inline-block;margin-top:16px}
</style></head><body>
<div class="ref" role="note">参考服务器模拟支付网关：本页面由参考服务器提供，仅用于演示支付流程，不会产生真实扣款。</div>
${body}
</body></html>`, status)
}

/**
 * Whether the simulated gateway runs (DEMO_PAY_GATEWAY=on|off). It settles an order with one tap and no money, so it
 * runs only in demo mode: by default on the single-instance PGlite setup `npm start` gives, off on PostgreSQL (a
 * deployment) unless turned on; either way the server says so when it starts (`line`).
 */
export const demoPayGatewayFrom = (env: { readonly DEMO_PAY_GATEWAY?: string | undefined; readonly DATABASE_URL?: string | undefined }) => {
  const set = (env.DEMO_PAY_GATEWAY ?? '').trim().toLowerCase()
  if (set !== '' && !['on', 'off', '1', '0', 'true', 'false'].includes(set)) throw new Error(`DEMO_PAY_GATEWAY 只能是 on 或 off（收到 ${env.DEMO_PAY_GATEWAY}）`)
  const postgres = Boolean(env.DATABASE_URL)
  const on = set === '' ? !postgres : ['on', '1', 'true'].includes(set)
  const line = on
    ? `演示支付网关：已开启（支付宝 H5、支付宝扫码与微信支付由参考服务器模拟，一键确认即视为支付成功，不产生真实扣款${postgres ? '；当前为 PostgreSQL 部署，请勿对真实用户开放' : ''}；DEMO_PAY_GATEWAY=off 关闭）`
    : `演示支付网关：已关闭（支付宝 H5、支付宝扫码与微信支付不可用，${postgres ? 'PostgreSQL 部署默认关闭；' : ''}DEMO_PAY_GATEWAY=on 开启演示模式）`
  return { on, line }
}

/** What the H5, Alipay QR and mini-program payments answer while the demo gateway is off (no real provider is
 * connected: a QR would lead nowhere, and the order could be settled only by an operator). */
export const H5_UNAVAILABLE = '该支付方式暂未开通，请选择其他支付方式'

export const registerPayGatewayRoutes = (ctx: ServerContext, options: { readonly demo: boolean }): void => {
  const { app, route, hub } = ctx
  const db = gatewayDb(ctx.db)
  if (!options.demo) {
    // no gateway pages at all (an old ticket finds nothing); the spend calls refuse instead of starting a payment
    const refuse = (): never => {
      throw new DomainError(Status.forbidden, H5_UNAVAILABLE)
    }
    route(app, catalogue.alipayH5Spend, refuse)
    route(app, catalogue.alipayPrecreate, refuse)
    route(app, catalogue.wxPayH5Spend, refuse)
    return
  }

  route(app, catalogue.alipayH5Spend, ({ payload, user }) => startH5Payment(db, user, payload.myOrderNum, 'alipay'))
  route(app, catalogue.wxPayH5Spend, ({ payload, user }) => startH5Payment(db, user, payload.myOrderNum, 'wxpay'))
  route(app, catalogue.alipayPrecreate, ({ payload, user, c }) => precreate(db.pay, user, payload.myOrderNum, qrCodeFor(db, user, originOf(c))))

  const lookup = async (ticket: string) => {
    if (!/^[A-Za-z0-9_-]{32}$/.test(ticket)) return null
    const row = await db.tickets.selectFrom('pay_gateway_tickets').selectAll().where('ticket', '=', ticket).executeTakeFirst()
    if (!row) return null
    await expireStale(db.pay)
    const order = await db.pay.selectFrom('orders').selectAll().where('my_order_num', '=', row.my_order_num)
      .where('user_id', '=', row.user_id).executeTakeFirst()
    return order ? { row, order } : null
  }

  const invalid = (c: Context) => page(c, '支付链接无效', html`<main><h1>支付链接无效</h1><p>该支付链接不存在或已失效，请返回应用重新发起支付。</p><a href="${BASE_PATH}">返回应用</a></main>`, 404)

  app.get(`${GATEWAY_PATH}/:ticket`, async (c) => {
    const found = await lookup(c.req.param('ticket'))
    if (!found) return invalid(c)
    const { row, order } = found
    const channel = channelOf(row.channel)
    const back = statusUrlOf(order.my_order_num, order.buy_type)
    if (row.used_at !== null || !isUnpaid(order.finish_pay)) {
      return page(c, '订单已处理', html`<main><h1>订单已处理</h1><p>该订单已支付、已关闭或已取消。</p><a href="${back}">返回应用查看结果</a></main>`)
    }
    return page(c, `${channel.name}（模拟）`, html`<main data-channel="${row.channel}">
<h1>${channel.name}收银台（模拟）</h1>
<div class="amount" style="color:${channel.colour}">¥${formatYuan(order.total_cents)}</div>
<div class="kv"><span>商品</span><span>${order.description}</span></div>
<div class="kv"><span>订单号</span><span>${order.my_order_num}</span></div>
<form method="post">
<button class="pay" style="background:${channel.colour}" name="action" value="confirm">确认支付</button>
<button name="action" value="cancel">取消支付</button>
</form></main>`)
  })

  app.post(`${GATEWAY_PATH}/:ticket`, async (c) => {
    const found = await lookup(c.req.param('ticket'))
    if (!found) return invalid(c)
    const { row, order } = found
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    const action = body['action']
    if (action !== 'confirm' && action !== 'cancel') return invalid(c)
    const spent = await db.tickets.updateTable('pay_gateway_tickets').set({ used_at: new Date() })
      .where('ticket', '=', row.ticket).where('used_at', 'is', null).returning('ticket').execute()
    const channel = channelOf(row.channel)
    if (spent.length === 1 && isUnpaid(order.finish_pay)) {
      // An order closed meanwhile (expired, paid another way) is reported by the status page; nothing to settle.
      await settle(db.pay, hub, order.my_order_num, action === 'confirm', Date.now(), channel.payType).catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error
      })
    }
    const back = statusUrlOf(order.my_order_num, order.buy_type)
    if (!channel.scanned) return c.redirect(back, 303)
    // scanned: this browser may be a phone that never opened the app; the app's pay-order page shows the result
    const now = await db.pay.selectFrom('orders').select('finish_pay').where('id', '=', order.id).executeTakeFirstOrThrow()
    const paid = now.finish_pay === FinishPay.paid
    const title = paid ? '支付成功' : '支付未完成'
    const text = paid ? '订单已支付，请回到下单的页面查看结果。' : '订单未支付，请回到下单的页面重新下单。'
    return page(c, title, html`<main data-paid="${paid ? 'true' : 'false'}"><h1>${title}</h1><p>${text}</p>
<div class="kv"><span>订单号</span><span>${order.my_order_num}</span></div><a href="${back}">在本设备打开应用查看结果</a></main>`)
  })
}
