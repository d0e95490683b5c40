// Where the payment flow goes next (routes of §2).
export const PAY_ORDER = '/package/purchase/components/alipayCodeScanning'
export const ORDER_STATUS = '/pages/order/status'
export const ORDER_RESULT = '/pages/order/result'
export const PURCHASE_RECORD = '/package/purchaseRecord/purchaseRecord'
