// /package/batchPurchase/batchPurchase: the purchase flow for several devices at once (a coupon needs batchBuy).
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'
import { PurchaseBody } from '../purchase/purchase.tsx'

export default function BatchPurchaseScreen() {
  return (
    <Page testId="batch-purchase-page">
      <PurchaseBody products="30" hint={zhCN.pay.batchBuyHint} />
    </Page>
  )
}
