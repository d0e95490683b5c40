// /package/purchaseRecord/purchaseRecord: my orders in three tabs (all / unpaid / paid), 20 a page; an unpaid order
// counts down to closeTime on server time and can be paid or cancelled (cancelOrderHandle, confirm, cancelOrder).
import { Button, Dialog, Tabs, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useState } from 'react'
import type { Order } from '../../../../worker/protocol/pay.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { countdownText, dateTimeText, finishPayText, payTypeText } from '../../../features/pay/order-rules.ts'
import { PATHS } from '../../../router/paths.ts'
import { serverOffset } from '../../../features/pay/server-offset.ts'
import { type CoreCall, useCall } from '../../../core/use-call.ts'
import { useMsLeft } from '../../../features/pay/use-pay-status.ts'
import '../../../features/pay/pay.css'
import { usePaged } from '../../../lib/use-paged.ts'
import { PagedFooter } from '../../../ui/kit/LoadMoreFooter.tsx'
import { Page } from '../../../ui/Page.tsx'
import { PAGES } from '../../../../worker/protocol/paging.ts'
import { FinishPay, isUnpaid } from '../../../../worker/protocol/domain.ts'

const t = zhCN.pay
const TABS = [
  { key: 'all', title: t.tabAll, finishPay: null },
  { key: 'unpaid', title: t.tabUnpaid, finishPay: FinishPay.unpaid },
  { key: 'paid', title: t.tabPaid, finishPay: FinishPay.paid },
] as const
type TabKey = (typeof TABS)[number]['key']

const Countdown = ({ closeTime, offset }: { closeTime: number; offset: number }) => {
  const left = useMsLeft(closeTime, offset)
  return <span className="pay-countdown" data-testid="order-countdown">{left > 0 ? t.closeIn(countdownText(left)) : t.closed}</span>
}

const OrderCard = ({ order, offset, call, onChanged }: { order: Order; offset: number; call: CoreCall; onChanged: () => void }) => {
  const navigate = useNavigate()
  const unpaid = isUnpaid(order.finishPay)
  const cancel = async () => {
    const can = await call('cancelOrderHandle', { myOrderNum: order.myOrderNum })
    if (!can.ok) return
    if (!can.data) {
      Toast.show({ content: finishPayText(order.finishPay) })
      return onChanged()
    }
    const ok = await Dialog.confirm({ content: t.cancelConfirm, confirmText: zhCN.devices.common.confirm, cancelText: zhCN.devices.common.cancel })
    if (!ok) return
    const done = await call('cancelOrder', { myOrderNum: order.myOrderNum })
    if (done.ok) Toast.show({ content: t.cancelled })
    onChanged()
  }
  return (
    <article className="pay-order" data-testid="order-item" data-order-num={order.myOrderNum} data-finish-pay={order.finishPay}>
      <div className="pay-order-head">
        <span>{order.description}</span>
        <span className={`pay-status-${order.finishPay}`}>{finishPayText(order.finishPay)}</span>
      </div>
      <div className="pay-kv"><span>{t.orderNum}</span><span>{order.myOrderNum}</span></div>
      <div className="pay-kv"><span>{t.ctime}</span><span>{dateTimeText(order.ctime)}</span></div>
      <div className="pay-kv">
        <span>{t.quantityOf(order.quantity)}{order.preferentialContent ? ` · ${order.preferentialContent}` : ''}</span>
        <span>{order.payType === 4 ? t.starCoins(order.starCoin) : t.yuan(order.totalAmount)}</span>
      </div>
      {order.payType !== null && <div className="pay-kv"><span>{t.payTypeLabel}</span><span>{payTypeText(order.payType)}</span></div>}
      {order.finishTime !== null && order.finishPay === FinishPay.paid && <div className="pay-kv"><span>{t.finishTime}</span><span>{dateTimeText(order.finishTime)}</span></div>}
      {order.finishPay === FinishPay.paid && order.giveStarNum > 0 && <div className="pay-kv"><span /><span className="pay-give">{t.giveStar(order.giveStarNum)}</span></div>}
      {unpaid && (
        <div className="pay-order-actions">
          <Countdown closeTime={order.closeTime} offset={offset} />
          <Button size="small" data-testid="order-cancel" onClick={() => void cancel()}>{t.cancelOrder}</Button>
          <Button size="small" color="primary" data-testid="order-pay" onClick={() => void navigate({ to: PATHS.alipayCodeScanning, search: { myOrderNum: order.myOrderNum } })}>
            {t.goPay}
          </Button>
        </div>
      )}
    </article>
  )
}

const orderKey = (o: Order): string => o.myOrderNum

export default function PurchaseRecordScreen() {
  const call = useCall()
  const [tab, setTab] = useState<TabKey>('all')
  const [offset, setOffset] = useState(0)

  useEffect(() => {
    void serverOffset(call).then(setOffset)
  }, [call])

  const finishPay = TABS.find((x) => x.key === tab)!.finishPay
  const fetchPage = useCallback(
    (pageNum: number) => call('qryDegreeOrder', { pageNum, pageSize: PAGES.orders.size, finishPay }),
    [call, finishPay],
  )
  const orders = usePaged(fetchPage, t.ordersFailed, orderKey)

  return (
    <Page testId="purchase-record-page">
      <Tabs className="pay-tabs" activeKey={tab} onChange={(k) => setTab(k as TabKey)}>
        {TABS.map((x) => <Tabs.Tab key={x.key} title={<span data-testid={`orders-tab-${x.key}`}>{x.title}</span>} />)}
      </Tabs>
      <div data-testid="order-list">
        {orders.list.map((o) => <OrderCard key={o.myOrderNum} order={o} offset={offset} call={call} onChanged={() => void orders.reload()} />)}
      </div>
      {orders.loaded && !orders.loading && orders.error === null && orders.list.length === 0
        ? <div className="pay-load-more" data-testid="orders-empty">{t.noOrders}</div>
        : <PagedFooter paged={orders} testId="orders-more" />}
    </Page>
  )
}
