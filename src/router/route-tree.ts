// The route tree: every screen's route (declared in its file under src/routes, mirroring the spec's paths) under the
// root route, plus the rule that unknown paths go home. Its type is what makes navigation checked (router.tsx).
import { createRoute, redirect } from '@tanstack/react-router'
import { rootRoute } from './root.tsx'
import { HomeAliasRoute, Route as home } from '../routes/pages/index/index.tsx'
import { Route as login } from '../routes/pages/login/login.tsx'
import { Route as quickLogin } from '../routes/pages/quickLogin/quickLogin.tsx'
import { Route as verificationCode } from '../routes/pages/verificationCode/verificationCode.tsx'
import { Route as forgotPassword } from '../routes/pages/forgotPassword/forgotPassword.tsx'
import { Route as registerAccount } from '../routes/pages/registerAccount/registerAccount.tsx'
import { Route as agreemen } from '../routes/pages/agreemen/agreemen.tsx'
import { Route as cover } from '../routes/pages/cover/cover.tsx'
import { Route as orderStatus } from '../routes/pages/order/status.tsx'
import { Route as orderResult } from '../routes/pages/order/result.tsx'
import { Route as adView } from '../routes/package/adView/adView.tsx'
import { Route as bulkOperation } from '../routes/package/bulkOperation/bulkOperation.tsx'
import { Route as groupControl } from '../routes/package/groupControl/groupControl.tsx'
import { Route as cloudPhoneView } from '../routes/package/cloudPhoneView/cloudPhoneView.tsx'
import { Route as bindingNumber } from '../routes/package/bindingNumber/bindingNumber.tsx'
import { Route as replacement } from '../routes/package/replacement/replacement.tsx'
import { Route as replacementInfo } from '../routes/package/replacementInfo/replacementInfo.tsx'
import { Route as deviceTransfer } from '../routes/package/deviceTransfer/deviceTransfer.tsx'
import { Route as setSecurityCode } from '../routes/package/setSecurityCode/setSecurityCode.tsx'
import { Route as purchase } from '../routes/package/purchase/purchase.tsx'
import { Route as renew } from '../routes/package/purchase/renew.tsx'
import { Route as alipayCodeScanning } from '../routes/package/purchase/components/alipayCodeScanning.tsx'
import { Route as batchRenewal } from '../routes/package/batchRenewal/batchRenewal.tsx'
import { Route as batchPurchase } from '../routes/package/batchPurchase/batchPurchase.tsx'
import { Route as purchaseRecord } from '../routes/package/purchaseRecord/purchaseRecord.tsx'
import { Route as timingRecord } from '../routes/package/timingRecord/timingRecord.tsx'
import { Route as personalInfo } from '../routes/package/personalInfo/personalInfo.tsx'
import { Route as couponNum } from '../routes/package/couponNum/couponNum.tsx'
import { Route as activationCode } from '../routes/package/activationCode/activationCode.tsx'
import { Route as starCoin } from '../routes/package/starCoin/starCoin.tsx'
import { Route as realNameAuthentication } from '../routes/package/realNameAuthentication/realNameAuthentication.tsx'
import { Route as recommendedCloudPhone } from '../routes/package/recommendedCloudPhone/recommendedCloudPhone.tsx'
import { Route as packageUpgrade } from '../routes/package/packageUpgrade/packageUpgrade.tsx'
import { Route as packageUpgradeOrder } from '../routes/package/packageUpgradeOrder/packageUpgradeOrder.tsx'
import { Route as packageUpgradeResults } from '../routes/package/packageUpgradeResults/packageUpgradeResults.tsx'
import { Route as onlineService } from '../routes/package/onlineService/onlineService.tsx'
import { Route as notificationMessage } from '../routes/package/notificationMessage/notificationMessage.tsx'
import { Route as authorizedDevices } from '../routes/package/authorizedDevices/authorizedDevices.tsx'
import { Route as setUp } from '../routes/package/setUp/setUp.tsx'
import { Route as ubertragungsseite } from '../routes/package/ubertragungsseite/ubertragungsseite.tsx'
import { Route as previewImage } from '../routes/preview-image.tsx'
import { Route as chooseLocation } from '../routes/choose-location.tsx'
import { Route as openLocation } from '../routes/open-location.tsx'

/** Any other path: home (the guard runs first, so a visitor's protected path is noted on the way). */
const unknownRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true })
  },
})

export const routeTree = rootRoute.addChildren([
  home, HomeAliasRoute, login, quickLogin, verificationCode, forgotPassword,
  registerAccount, agreemen, cover, orderStatus, orderResult, adView,
  bulkOperation, groupControl, cloudPhoneView, bindingNumber, replacement, replacementInfo, deviceTransfer,
  setSecurityCode, purchase, renew, alipayCodeScanning, batchRenewal, batchPurchase,
  purchaseRecord, timingRecord, personalInfo, couponNum, activationCode, starCoin,
  realNameAuthentication, recommendedCloudPhone, packageUpgrade, packageUpgradeOrder, packageUpgradeResults, onlineService,
  notificationMessage, authorizedDevices, setUp, ubertragungsseite, previewImage, chooseLocation,
  openLocation,
  unknownRoute,
])
