// Strings of the ad view, the built-in placeholder pages, and screen titles.
/** /package/adView/adView. */
export const adView = {
  refused: '无法打开该链接',
  refusedHint: '只能打开本应用广告的 http 或 https 地址',
  openInBrowser: '在浏览器中打开',
  loading: '正在加载…',
  frameTitle: '广告内容',
} as const

export const placeholder = {
  previewImage: '图片预览',
  previewEmpty: '没有可预览的图片',
  chooseLocation: '选择位置',
  chooseLocationText: '网页版暂不支持选择位置',
  openLocation: '查看位置',
  openLocationText: (lat: string, lng: string) => `位置坐标：${lat}，${lng}`,
  openLocationEmpty: '没有可查看的位置',
} as const

/** Screen titles for the navigation bar of screens that are not built yet (product-spec §2 meanings). */
export const screens = {
  quickLogin: '验证码登录',
  verificationCode: '输入验证码',
  forgotPassword: '忘记密码',
  registerAccount: '注册账号',
  agreemen: '用户协议',
  cover: '提示',
  orderStatus: '支付确认',
  orderResult: '结果反馈',
  adView: '广告',
  setSecurityCode: '设置安全码',
  purchase: '购买套餐',
  renew: '续费',
  alipayCodeScanning: '订单支付',
  batchRenewal: '批量续费',
  batchPurchase: '批量购买',
  purchaseRecord: '购买记录',
  personalInfo: '个人信息',
  couponNum: '优惠券',
  activationCode: '激活码',
  starCoin: '星币',
  realNameAuthentication: '实名认证',
  packageUpgrade: '套餐升级',
  packageUpgradeOrder: '升级订单',
  packageUpgradeResults: '升级结果',
  onlineService: '在线客服',
  notificationMessage: '消息通知',
  setUp: '设置',
  bulkOperation: '批量操作',
  cloudPhoneView: '云手机',
  replacement: '一键新机',
  replacementInfo: '新机消息',
  deviceTransfer: '云机转移',
  ubertragungsseite: '转移',
  authorizedDevices: '授权设备',
  timingRecord: '关机记录',
  recommendedCloudPhone: '推荐云手机',
} as const
