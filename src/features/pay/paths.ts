// Where the payment flow goes next (routes of §2).
export const PAY_ORDER = '/package/purchase/components/alipayCodeScanning'
export const ORDER_STATUS = '/pages/order/status'
export const ORDER_RESULT = '/pages/order/result'
export const PURCHASE_RECORD = '/package/purchaseRecord/purchaseRecord'
export const BATCH_PURCHASE = '/package/batchPurchase/batchPurchase'
export const UPGRADE_ORDER = '/package/packageUpgradeOrder/packageUpgradeOrder'
export const UPGRADE_RESULTS = '/package/packageUpgradeResults/packageUpgradeResults'

/** Where a finished payment is reported: upgrades have their own results page (`next=upgrade`). */
export const resultPathFor = (next: string | undefined): string => (next === 'upgrade' ? UPGRADE_RESULTS : ORDER_RESULT)
