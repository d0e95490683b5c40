// Every route of product-spec §2 plus the quick-login code step and the built-in placeholder pages (decisions.md). The
// three paths the core's push rules compare with come from the contract (worker/protocol/constants.ts).
import { HOME_PATH, LOGIN_PATH, VIEWER_PATH } from '../../worker/protocol/constants.ts'

/** Every route's path, by screen: the route files declare these, navigation names them (typed by the route tree). */
export const PATHS = {
  home: HOME_PATH,
  login: LOGIN_PATH,
  quickLogin: '/pages/quickLogin/quickLogin',
  verificationCode: '/pages/verificationCode/verificationCode',
  forgotPassword: '/pages/forgotPassword/forgotPassword',
  registerAccount: '/pages/registerAccount/registerAccount',
  agreemen: '/pages/agreemen/agreemen',
  cover: '/pages/cover/cover',
  orderStatus: '/pages/order/status',
  orderResult: '/pages/order/result',
  adView: '/package/adView/adView',
  bulkOperation: '/package/bulkOperation/bulkOperation',
  /** ours (issue 23): group control, 群控. */
  groupControl: '/package/groupControl/groupControl',
  cloudPhoneView: VIEWER_PATH,
  bindingNumber: '/package/bindingNumber/bindingNumber',
  replacement: '/package/replacement/replacement',
  replacementInfo: '/package/replacementInfo/replacementInfo',
  deviceTransfer: '/package/deviceTransfer/deviceTransfer',
  setSecurityCode: '/package/setSecurityCode/setSecurityCode',
  purchase: '/package/purchase/purchase',
  renew: '/package/purchase/renew',
  alipayCodeScanning: '/package/purchase/components/alipayCodeScanning',
  batchRenewal: '/package/batchRenewal/batchRenewal',
  batchPurchase: '/package/batchPurchase/batchPurchase',
  purchaseRecord: '/package/purchaseRecord/purchaseRecord',
  timingRecord: '/package/timingRecord/timingRecord',
  personalInfo: '/package/personalInfo/personalInfo',
  couponNum: '/package/couponNum/couponNum',
  activationCode: '/package/activationCode/activationCode',
  starCoin: '/package/starCoin/starCoin',
  realNameAuthentication: '/package/realNameAuthentication/realNameAuthentication',
  recommendedCloudPhone: '/package/recommendedCloudPhone/recommendedCloudPhone',
  packageUpgrade: '/package/packageUpgrade/packageUpgrade',
  packageUpgradeOrder: '/package/packageUpgradeOrder/packageUpgradeOrder',
  packageUpgradeResults: '/package/packageUpgradeResults/packageUpgradeResults',
  onlineService: '/package/onlineService/onlineService',
  notificationMessage: '/package/notificationMessage/notificationMessage',
  authorizedDevices: '/package/authorizedDevices/authorizedDevices',
  setUp: '/package/setUp/setUp',
  ubertragungsseite: '/package/ubertragungsseite/ubertragungsseite',
  previewImage: '/preview-image',
  chooseLocation: '/choose-location',
  openLocation: '/open-location',
} as const

export const ROUTE_PATHS = Object.values(PATHS)
export type RoutePath = (typeof ROUTE_PATHS)[number]

/** `/` is an alias of the home route. */
export const canonicalPath = (path: string): string => (path === '/' || path === '' ? PATHS.home : path)

/** The route file of a path, relative to src/routes (`/package/purchase/renew` -> `package/purchase/renew.tsx`). */
export const screenFile = (path: RoutePath): string => `${path.slice(1)}.tsx`
