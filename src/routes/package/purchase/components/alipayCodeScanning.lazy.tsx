// /package/purchase/components/alipayCodeScanning?myOrderNum: the pay-order page of an Alipay QR payment. Shows the
// amount and the QR code (an image, with its content kept as copyable text), counts down to closeTime on server time
// and polls the pay status; a final status goes to the result page.
import { Button, Toast } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { Precreate } from '../../../../../worker/protocol/pay.ts'
import { zhCN } from '../../../../i18n/zh-CN.ts'
import { countdownText } from '../../../../features/pay/order-rules.ts'
import { resultPathFor } from '../../../../features/pay/paths.ts'
import { PATHS } from '../../../../router/paths.ts'
import { serverOffset } from '../../../../features/pay/server-offset.ts'
import { useCall, withData } from '../../../../core/use-call.ts'
import { useMsLeft, usePayStatus } from '../../../../features/pay/use-pay-status.ts'
import { QrCode } from '../../../../features/pay/QrCode.tsx'
import '../../../../features/pay/pay.css'
import { Page } from '../../../../ui/Page.tsx'

const route = getRouteApi(PATHS.alipayCodeScanning)

const t = zhCN.pay

export default function AlipayCodeScanningScreen() {
  const call = useCall()
  const navigate = useNavigate()
  const search = route.useSearch()
  const myOrderNum = search.myOrderNum ?? ''
  const [order, setOrder] = useState<Precreate | null>(null)
  /** why no code could be made (the order closed, or the server offers no QR payment), in the server's words */
  const [failed, setFailed] = useState<string | null>(null)
  const [offset, setOffset] = useState(0)

  useEffect(() => {
    let live = true
    void serverOffset(call).then((o) => live && setOffset(o))
    void call('alipayPrecreate', { myOrderNum }).then(withData).then((r) => {
      if (!live) return
      if (r.ok) setOrder(r.data)
      else setFailed(r.msg || t.closed)
    })
    return () => {
      live = false
    }
  }, [call, myOrderNum])

  const status = usePayStatus(call, myOrderNum, order !== null)
  const msLeft = useMsLeft(order?.closeTime ?? null, offset)
  const closed = order !== null && msLeft <= 0

  useEffect(() => {
    if (status === 1 || status === 2) void navigate({ to: resultPathFor(search.next), search: { myOrderNum }, replace: true })
  }, [status, myOrderNum, navigate, search.next])

  const copy = async () => {
    if (!order) return
    try {
      await navigator.clipboard.writeText(order.qrCode)
      Toast.show({ content: t.copied })
    } catch {
      Toast.show({ content: t.copyFailed })
    }
  }

  return (
    <Page testId="pay-order-page">
      {failed !== null ? (
        <div className="center-state" data-testid="pay-order-failed">
          <p>{failed}</p>
          <Button color="primary" fill="outline" onClick={() => void navigate({ to: PATHS.purchaseRecord })}>{t.viewOrders}</Button>
        </div>
      ) : !order ? (
        <div className="center-state"><p>{t.loading}</p></div>
      ) : (
        <>
          <section className="pay-section pay-center" data-testid="pay-order" data-order-num={order.myOrderNum}>
            <span className="pay-muted">{t.amount}</span>
            <span className="pay-amount" data-testid="pay-order-amount">¥{order.totalAmount}</span>
            <span className="pay-countdown" data-testid="pay-order-countdown">{closed ? t.closed : t.closesIn(countdownText(msLeft))}</span>
            <div className="pay-kv" style={{ width: '100%' }}><span>{t.orderNum}</span><span data-testid="pay-order-num">{order.myOrderNum}</span></div>
          </section>
          <section className="pay-section">
            <h3>{t.qrTitle}</h3>
            <div className="pay-center pay-qr-box">
              <QrCode text={order.qrCode} alt={t.qrAlt(order.totalAmount)} failedText={t.qrFailed} testId="pay-order-qr-image" />
            </div>
            <p className="pay-muted">{t.qrHint}</p>
            <div className="pay-code" data-testid="pay-order-qr">{order.qrCode}</div>
            <div className="pay-actions" style={{ padding: '12px 0 0' }}>
              <Button size="small" onClick={() => void copy()} data-testid="pay-order-copy">{t.copy}</Button>
            </div>
            <p className="pay-muted" data-testid="pay-order-waiting">{status === 3 || status === 0 ? t.waiting : ''}</p>
          </section>
          <div className="pay-actions">
            <Button color="primary" data-testid="pay-order-done" onClick={() => void navigate({ to: PATHS.orderStatus, search: search.next ? { myOrderNum, next: search.next } : { myOrderNum }, replace: true })}>
              {t.donePaying}
            </Button>
            <Button fill="outline" onClick={() => void navigate({ to: PATHS.purchaseRecord })}>{t.viewOrders}</Button>
          </div>
        </>
      )}
    </Page>
  )
}
