// Paying an order that exists: star coins at once, the Alipay QR on the pay-order page, or Alipay / WeChat H5 by
// leaving for the payment page the server names (it sends the browser back to /pages/order/status).
import { Toast } from 'antd-mobile'
import { zhCN } from '../../i18n/zh-CN.ts'
import { Points } from '../analytics/points.ts'
import { resolveHttpUrl } from '../../../worker/protocol/domain.ts'
import type { PayMethod } from '../../../worker/protocol/pricing.ts'
import { withData, type CoreCall } from '../../core/use-call.ts'

const t = zhCN.pay

export type PaymentStep =
  | { readonly kind: 'paid' }
  | { readonly kind: 'qr' }
  | { readonly kind: 'left' }
  | { readonly kind: 'failed' }

export const startPayment = async (
  call: CoreCall,
  method: PayMethod,
  myOrderNum: string,
  leave: (url: string) => void = (url) => window.location.assign(url),
): Promise<PaymentStep> => {
  void call('stat', { pointName: Points.pay(method) })
  if (method === 'starCoin') {
    const paid = await call('starCoinsSpend', { myOrderNum })
    if (!paid.ok) return { kind: 'failed' }
    Toast.show({ content: t.starCoinPaid })
    return { kind: 'paid' }
  }
  if (method === 'alipayQr') return { kind: 'qr' }
  const spent = withData(await call(method === 'alipayH5' ? 'alipayH5Spend' : 'wxPayH5Spend', { myOrderNum }))
  if (!spent.ok) return { kind: 'failed' }
  const target = resolveHttpUrl(spent.data.payUrl, window.location.href)
  if (!target) {
    Toast.show({ content: t.h5Failed })
    return { kind: 'failed' }
  }
  Toast.show({ content: t.h5Leaving, icon: 'loading' })
  leave(target)
  return { kind: 'left' }
}
