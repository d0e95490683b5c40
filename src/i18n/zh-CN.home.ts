// Strings of the home (device list, header, pull to refresh, logout confirmation) and the notifications screen.
import { screens } from './zh-CN.screens.ts'

export const home = {
  myPhones: '我的云手机',
  empty: '暂无云手机',
  emptyHint: '购买套餐即可拥有一台云手机',
  buy: '购买云手机',
  loadFailed: '云手机列表加载失败',
  logout: '退出登录',
  logoutConfirmTitle: '退出登录',
  logoutConfirm: '确定要退出当前账号吗？',
  confirm: '确定',
  cancel: '取消',
  pullIdle: '下拉刷新',
  pullCanRelease: '释放立即刷新',
  pullRefreshing: '正在刷新…',
  pullComplete: '刷新成功',
  previewAlt: (name: string) => `${name}预览图`,
  count: (n: number) => `共${n}台`,
  shortcuts: {
    purchase: '购买云手机',
    batchRenewal: '批量续费',
    orders: '订单记录',
    recommended: screens.recommendedCloudPhone,
    bulk: '批量操作',
    authorise: '授权管理',
    transfer: '设备转移',
    starCoin: '我的星币',
    settings: '设置',
  },
  visitorTitle: '登录后查看您的云手机',
  visitorHint: '租用的云手机、授权给您的云手机都会显示在这里',
  login: '登录 / 注册',
  notifications: '消息',
  unread: (n: number) => (n > 0 ? `${n}条未读消息` : '没有未读消息'),
  current: '当前',
} as const

/** /package/notificationMessage/notificationMessage. */
export const notices = {
  empty: '暂无消息',
  emptyHint: '系统公告和活动通知会显示在这里',
  loadFailed: '消息加载失败',
  unread: '未读',
  read: '已读',
  announcement: '系统公告',
  notice: '通知',
  close: '知道了',
} as const
