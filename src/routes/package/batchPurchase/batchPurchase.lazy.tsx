// /package/batchPurchase/batchPurchase: the purchase flow for several devices at once (a coupon needs batchBuy);
// closed while the batch switch (getPhoneMealBatchSwitch) is off.
import { getRouteApi } from '@tanstack/react-router'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { useBatchSwitch } from '../../../features/pay/use-meal-presentation.ts'
import { Page } from '../../../ui/Page.tsx'
import { PurchaseBody } from '../purchase/purchase.lazy.tsx'
import { PATHS } from '../../../router/paths.ts'

const route = getRouteApi(PATHS.batchPurchase)

export default function BatchPurchaseScreen() {
  const batchOn = useBatchSwitch()
  const search = route.useSearch()
  return (
    <Page testId="batch-purchase-page">
      {batchOn === false
        ? <p className="pay-closed" data-testid="batch-closed">{zhCN.pay.batchClosed}</p>
        : <PurchaseBody products="30" hint={zhCN.pay.batchBuyHint} search={search} />}
    </Page>
  )
}
