// /pages/order/result?myOrderNum: the outcome of a payment with the order's details; the device list is refreshed.
import { Button, Result } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { dateTimeText, finishPayText, payTypeText } from '../../../features/pay/order-rules.ts'
import { useFinishedOrder } from '../../../features/pay/use-finished-order.ts'
import '../../../features/pay/pay.css'
import { PATHS } from '../../../router/paths.ts'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'
import { FinishPay } from '../../../../worker/protocol/domain.ts'

const route = getRouteApi(PATHS.orderResult)

const t = zhCN.pay

export default function OrderResultScreen() {
  const navigate = useNavigate()
  const search = route.useSearch()
  const myOrderNum = search.myOrderNum ?? ''
  const loaded = useFinishedOrder(myOrderNum)
  const order = loaded.data

  const ok = order?.finishPay === FinishPay.paid
  return (
    <Page testId="order-result-page">
      {loaded.error !== null ? (
        <LoadFailed title={t.orderLoadFailed} message={loaded.error} onRetry={loaded.reload} testId="order-result-failed" />
      ) : order === null ? (
        <div className="center-state"><p>{t.loading}</p></div>
      ) : (
        <div data-testid="order-result" data-ok={ok ? 'true' : 'false'}>
          <Result
            status={ok ? 'success' : 'error'}
            title={ok ? t.resultSuccess : t.resultFailed}
            description={ok ? t.resultSuccessText : t.resultFailedText}
          />
          <section className="pay-section">
            <div className="pay-kv"><span>{t.orderNum}</span><span>{order.myOrderNum}</span></div>
            <div className="pay-kv"><span>{order.description}</span><span className={`pay-status-${order.finishPay}`}>{finishPayText(order.finishPay)}</span></div>
            <div className="pay-kv"><span>{t.amount}</span><span>{order.payType === 4 ? t.starCoins(order.starCoin) : t.yuan(order.totalAmount)}</span></div>
            {order.payType !== null && <div className="pay-kv"><span>{t.payTypeLabel}</span><span>{payTypeText(order.payType)}</span></div>}
            {order.finishTime !== null && <div className="pay-kv"><span>{t.finishTime}</span><span>{dateTimeText(order.finishTime)}</span></div>}
            {ok && order.giveStarNum > 0 && <div className="pay-kv"><span /><span className="pay-give">{t.giveStar(order.giveStarNum)}</span></div>}
          </section>
          <div className="pay-actions">
            <Button color="primary" data-testid="order-result-home" onClick={() => void navigate({ to: PATHS.home, replace: true })}>{t.backHome}</Button>
            <Button fill="outline" onClick={() => void navigate({ to: PATHS.purchaseRecord })}>{t.viewOrders}</Button>
          </div>
        </div>
      )}
    </Page>
  )
}
