// The pay confirmation (确认支付) asked before money moves. The spec's paymentPopupVisible key (§3) is not written:
// no rule reads it, and the dialog is this tab's own.
import { useCallback } from 'react'
import { Dialog } from 'antd-mobile'
import { zhCN } from '../../i18n/zh-CN.ts'

const t = zhCN.pay

/** asks 确认支付 with `content`; true when the user confirmed. */
export const useConfirmPayment = (): ((content: string) => Promise<boolean>) =>
  useCallback((content: string) => Dialog.confirm({ title: t.confirmTitle, content, confirmText: t.confirm, cancelText: t.cancel }), [])
