// /package/batchPurchase/batchPurchase: the purchase flow for several devices at once (a coupon needs batchBuy);
// closed while the batch switch (getPhoneMealBatchSwitch) is off.
import { zhCN } from '../../../i18n/zh-CN.ts'
import { useBatchSwitch } from '../../../features/pay/use-meal-presentation.ts'
import { Page } from '../../../ui/Page.tsx'
import { PurchaseBody } from '../purchase/purchase.lazy.tsx'

export default function BatchPurchaseScreen() {
  const batchOn = useBatchSwitch()
  return (
    <Page testId="batch-purchase-page">
      {batchOn === false
        ? <p className="pay-closed" data-testid="batch-closed">{zhCN.pay.batchClosed}</p>
        : <PurchaseBody products="30" hint={zhCN.pay.batchBuyHint} />}
    </Page>
  )
}
