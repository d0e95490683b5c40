import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROUTE_PATHS, screenFile } from '../../../src/router/paths.ts'

const routesDir = fileURLToPath(new URL('../../../src/routes/', import.meta.url))

const SPEC_ROUTES = [
  '/pages/index/index', '/pages/login/login', '/pages/quickLogin/quickLogin', '/pages/forgotPassword/forgotPassword',
  '/pages/registerAccount/registerAccount', '/pages/agreemen/agreemen', '/pages/cover/cover', '/pages/order/status',
  '/pages/order/result', '/package/adView/adView', '/package/bulkOperation/bulkOperation',
  '/package/cloudPhoneView/cloudPhoneView', '/package/bindingNumber/bindingNumber', '/package/replacement/replacement',
  '/package/replacementInfo/replacementInfo', '/package/deviceTransfer/deviceTransfer',
  '/package/setSecurityCode/setSecurityCode', '/package/purchase/purchase', '/package/purchase/renew',
  '/package/purchase/components/alipayCodeScanning', '/package/batchRenewal/batchRenewal',
  '/package/batchPurchase/batchPurchase', '/package/purchaseRecord/purchaseRecord', '/package/timingRecord/timingRecord',
  '/package/personalInfo/personalInfo', '/package/couponNum/couponNum', '/package/activationCode/activationCode',
  '/package/starCoin/starCoin', '/package/realNameAuthentication/realNameAuthentication',
  '/package/recommendedCloudPhone/recommendedCloudPhone', '/package/packageUpgrade/packageUpgrade',
  '/package/packageUpgradeOrder/packageUpgradeOrder', '/package/packageUpgradeResults/packageUpgradeResults',
  '/package/onlineService/onlineService', '/package/notificationMessage/notificationMessage',
  '/package/authorizedDevices/authorizedDevices', '/package/setUp/setUp', '/package/ubertragungsseite/ubertragungsseite',
]

describe('route table', () => {
  it('registers every route of product-spec §2, the code step of quick login and the three placeholder pages', () => {
    const registered = new Set<string>(ROUTE_PATHS)
    // ours beyond the spec: group control (issue 23)
    const ours = ['/package/groupControl/groupControl']
    for (const path of [...SPEC_ROUTES, '/pages/verificationCode/verificationCode', '/preview-image', '/choose-location', '/open-location', ...ours]) {
      expect(registered.has(path), path).toBe(true)
    }
    expect(registered.size).toBe(SPEC_ROUTES.length + 4 + ours.length)
  })

  it('has a route file mirroring each route path', () => {
    expect(screenFile('/package/purchase/renew')).toBe('package/purchase/renew.tsx')
    for (const path of ROUTE_PATHS) {
      expect(existsSync(`${routesDir}${screenFile(path)}`), screenFile(path)).toBe(true)
      // the screen itself, loaded when the route is first shown
      expect(existsSync(`${routesDir}${screenFile(path).replace(/\.tsx$/, '.lazy.tsx')}`), `${path} screen`).toBe(true)
    }
  })
})
