// Every route of product-spec §2 plus the quick-login code step and the built-in placeholder pages (decisions.md).

export const HOME = '/pages/index/index'
export const LOGIN = '/pages/login/login'
export const COVER = '/pages/cover/cover'
export const BIND_PHONE = '/package/bindingNumber/bindingNumber'
export const PURCHASE = '/package/purchase/purchase'

export const ROUTE_PATHS = [
  HOME,
  LOGIN,
  '/pages/quickLogin/quickLogin',
  '/pages/verificationCode/verificationCode',
  '/pages/forgotPassword/forgotPassword',
  '/pages/registerAccount/registerAccount',
  '/pages/agreemen/agreemen',
  COVER,
  '/pages/order/status',
  '/pages/order/result',
  '/package/adView/adView',
  '/package/bulkOperation/bulkOperation',
  '/package/cloudPhoneView/cloudPhoneView',
  BIND_PHONE,
  '/package/replacement/replacement',
  '/package/replacementInfo/replacementInfo',
  '/package/deviceTransfer/deviceTransfer',
  '/package/setSecurityCode/setSecurityCode',
  PURCHASE,
  '/package/purchase/renew',
  '/package/purchase/components/alipayCodeScanning',
  '/package/batchRenewal/batchRenewal',
  '/package/batchPurchase/batchPurchase',
  '/package/purchaseRecord/purchaseRecord',
  '/package/timingRecord/timingRecord',
  '/package/personalInfo/personalInfo',
  '/package/couponNum/couponNum',
  '/package/activationCode/activationCode',
  '/package/starCoin/starCoin',
  '/package/realNameAuthentication/realNameAuthentication',
  '/package/recommendedCloudPhone/recommendedCloudPhone',
  '/package/packageUpgrade/packageUpgrade',
  '/package/packageUpgradeOrder/packageUpgradeOrder',
  '/package/packageUpgradeResults/packageUpgradeResults',
  '/package/onlineService/onlineService',
  '/package/notificationMessage/notificationMessage',
  '/package/authorizedDevices/authorizedDevices',
  '/package/setUp/setUp',
  '/package/ubertragungsseite/ubertragungsseite',
  '/preview-image',
  '/choose-location',
  '/open-location',
] as const
export type RoutePath = (typeof ROUTE_PATHS)[number]

/** `/` is an alias of the home route. */
export const canonicalPath = (path: string): string => (path === '/' || path === '' ? HOME : path)

/** The source file serving a route, relative to src/routes (`/package/purchase/renew` -> `package/purchase/renew.tsx`). */
export const screenFile = (path: RoutePath): string => `${path.slice(1)}.tsx`
