// Payment channels beyond the QR code and star coins (§7 "Pay and packages"): Alipay H5 and WeChat H5 (the browser
// leaves for the provider's page, which sends it back to /pages/order/status), and the WeChat mini-program payment,
// which exists for the mini program only and is never offered in a browser.
import * as Schema from 'effect/Schema'
import { endpoint } from './endpoint.ts'
import { TokenText } from './limits.ts'
import { OrderNumBody } from './pay.ts'

/** Where to send the browser to pay: an absolute http(s) URL, or a path on the API's own origin. */
export const H5Pay = Schema.Struct({ myOrderNum: Schema.String, payUrl: Schema.String })
export type H5Pay = typeof H5Pay.Type


export const payH5Endpoints = {
  alipayH5Spend: endpoint({
    name: 'alipayH5Spend', method: 'GET', repeatable: false, idempotent: true, path: '/api/pay/v1/alipay/h5/spend',
    request: OrderNumBody, response: H5Pay,
  }),
  wxPayH5Spend: endpoint({
    name: 'wxPayH5Spend', method: 'GET', repeatable: false, idempotent: true, path: '/api/pay/v1/wxPay/h5/spend',
    request: OrderNumBody, response: H5Pay,
  }),
} as const
