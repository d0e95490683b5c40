// /pages/order/status?myOrderNum: payment confirmation after the user says they paid; polls the pay status and goes
// to the result page once it is final.
import { Button, SpinLoading } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { resultPathFor } from '../../../features/pay/paths.ts'
import { PATHS } from '../../../router/paths.ts'
import { useCall } from '../../../core/use-call.ts'
import { usePayStatus } from '../../../features/pay/use-pay-status.ts'
import '../../../features/pay/pay.css'
import { Page } from '../../../ui/Page.tsx'

const route = getRouteApi(PATHS.orderStatus)

const t = zhCN.pay

export default function OrderStatusScreen() {
  const call = useCall()
  const navigate = useNavigate()
  const search = route.useSearch()
  const myOrderNum = search.myOrderNum ?? ''
  const [round, setRound] = useState(0)
  const status = usePayStatus(call, myOrderNum, true, round)

  useEffect(() => {
    if (status === 1 || status === 2) void navigate({ to: resultPathFor(search.next), search: { myOrderNum }, replace: true })
  }, [status, myOrderNum, navigate, search.next])

  return (
    <Page testId="order-status-page">
      <div className="pay-center" data-testid="order-status" data-status={status ?? ''}>
        <SpinLoading color="primary" />
        <h3>{t.statusTitle}</h3>
        <p className="pay-muted">{status === 0 ? t.statusNone : status === 3 ? t.statusPaying : t.statusChecking}</p>
        <div className="pay-actions" style={{ width: '100%' }}>
          <Button fill="outline" onClick={() => setRound((n) => n + 1)}>{t.statusRefresh}</Button>
          <Button color="primary" onClick={() => void navigate({ to: PATHS.alipayCodeScanning, search: search.next ? { myOrderNum, next: search.next } : { myOrderNum }, replace: true })}>{t.repay}</Button>
        </div>
      </div>
    </Page>
  )
}
