// The pay confirmation (确认支付) asked before money moves, with the spec's paymentPopupVisible key set while it is
// open (payment-popup-flag.ts).
import { useCallback } from 'react'
import { Dialog } from 'antd-mobile'
import { useCore } from '../../core-context.tsx'
import { zhCN } from '../../i18n/zh-CN.ts'
import { withPaymentPopupFlag } from './payment-popup-flag.ts'

const t = zhCN.pay

/** asks 确认支付 with `content`; true when the user confirmed. */
export const useConfirmPayment = (): ((content: string) => Promise<boolean>) => {
  const { api } = useCore()
  return useCallback(
    (content: string) => withPaymentPopupFlag(
      (key, value) => api.setLocal(key, value),
      () => Dialog.confirm({ title: t.confirmTitle, content, confirmText: t.confirm, cancelText: t.cancel }),
    ),
    [api],
  )
}
