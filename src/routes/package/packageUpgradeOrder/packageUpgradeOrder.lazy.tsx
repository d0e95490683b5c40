// /package/packageUpgradeOrder/packageUpgradeOrder?myOrderNum: the upgrade's pay order: amount, countdown to
// closeTime, payment method (Alipay H5, WeChat H5, Alipay QR or star coins), confirmed payment; results on the upgrade
// results page.
import { Button } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useState } from 'react'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { countdownText } from '../../../features/pay/order-rules.ts'
import { PATHS } from '../../../router/paths.ts'
import type { PayMethod } from '../../../../worker/protocol/pricing.ts'
import { PayMethods } from '../../../features/pay/PayMethods.tsx'
import { startPayment } from '../../../features/pay/start-payment.ts'
import { serverOffset } from '../../../features/pay/server-offset.ts'
import { useCall } from '../../../core/use-call.ts'
import { useLoaded } from '../../../lib/use-loaded.ts'
import { useConfirmPayment } from '../../../features/pay/payment-popup.ts'
import { useMsLeft } from '../../../features/pay/use-pay-status.ts'
import '../../../features/pay/pay.css'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'
import { isUnpaid } from '../../../../worker/protocol/domain.ts'

const route = getRouteApi(PATHS.packageUpgradeOrder)

const t = zhCN.pay

export default function PackageUpgradeOrderScreen() {
  const call = useCall()
  const confirmPayment = useConfirmPayment()
  const navigate = useNavigate()
  const search = route.useSearch()
  const myOrderNum = search.myOrderNum ?? ''
  const [offset, setOffset] = useState(0)
  const [method, setMethod] = useState<PayMethod>('alipayQr')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void serverOffset(call).then(setOffset)
  }, [call])
  const loaded = useLoaded(useCallback(() => call('orderDetail', { myOrderNum }), [call, myOrderNum]), t.orderLoadFailed)
  const order = loaded.data

  const msLeft = useMsLeft(order?.closeTime ?? null, offset)
  const open = order !== null && isUnpaid(order.finishPay) && msLeft > 0
  const amount = order ? (method === 'starCoin' ? t.starCoins(order.starCoin) : t.yuan(order.totalAmount)) : ''

  const pay = async () => {
    if (!order || !open) return
    const ok = await confirmPayment(`${order.description}，${amount}`)
    if (!ok) return
    setBusy(true)
    try {
      const step = await startPayment(call, method, myOrderNum)
      if (step.kind === 'paid') await navigate({ to: PATHS.packageUpgradeResults, search: { myOrderNum }, replace: true })
      else if (step.kind === 'qr') await navigate({ to: PATHS.alipayCodeScanning, search: { myOrderNum, next: 'upgrade' } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page testId="upgrade-order-page">
      {loaded.error !== null ? (
        <LoadFailed title={t.orderLoadFailed} message={loaded.error} onRetry={loaded.reload} testId="upgrade-order-failed" />
      ) : !order ? <div className="center-state"><p>{t.loading}</p></div> : (
        <>
          <section className="pay-section pay-center" data-testid="upgrade-order" data-order-num={order.myOrderNum}>
            <span className="pay-muted">{order.description}</span>
            <span className="pay-amount">{amount}</span>
            <span className="pay-countdown">{open ? t.closesIn(countdownText(msLeft)) : t.closed}</span>
            <div className="pay-kv" style={{ width: '100%' }}><span>{t.orderNum}</span><span>{order.myOrderNum}</span></div>
          </section>
          <section className="pay-section">
            <h3>{t.payMethod}</h3>
            <PayMethods value={method} onChange={setMethod} testIdPrefix="upgrade" />
          </section>
          <div className="pay-actions">
            <Button color="primary" data-testid="upgrade-pay" disabled={!open || busy} loading={busy} onClick={() => void pay()}>{t.payNow}</Button>
          </div>
        </>
      )}
    </Page>
  )
}
