// Strings of the app frame every screen shares: titles, booting, the offline shell, the session notices, screen loading.
export const app = {
  /** decisions.md: `{systemName}云手机` in the navigation bar and document.title. */
  title: (systemName: string) => `${systemName}云手机`,
  fallbackTitle: '云手机',
  booting: '正在连接…',
  bootFailed: '无法启动应用，请刷新页面重试',
  retry: '重试',
  back: '返回',
  decrease: '减少',
  increase: '增加',
  /** a call that was on its way when the core's worker stopped (Android may kill it): it may not have been done. */
  coreRestarted: '连接中断，请重试',
  /**
   * issue 21: a change (an order, a reboot, a transfer...) was on its way when the core's worker died: it may or may
   * not have been done, and repeating it blindly could do it twice. The customer is told so and where to look.
   */
  outcomeUnknown: '操作结果未知，请刷新后查看',
} as const

/** issue 12: the installable shell and the offline state. */
export const shell = {
  updateAvailable: '新版本可用，点击刷新',
  refresh: '刷新',
  later: '稍后',
  offline: '网络已断开，正在显示上次获取的设备列表',
  offlineAt: (time: string) => `（更新于${time}）`,
  offlineAction: '网络已断开，恢复联网后可操作',
  offlineActions: '重启、续费等操作需要联网，恢复联网后可用',
} as const

/** The notices every tab raises from the shared state (§4, §8, decisions.md "Several tabs, one session"). */
export const sessionNotices = {
  goLogin: '去登录',
  maintenanceEta: (showTime: string) => `预计：${showTime}完成`,
} as const

export const screen = {
  loading: '加载中…',
  loadFailed: '页面加载失败',
  loadTimeout: '页面加载超时，请检查网络后重试',
  chunkTimeout: '页面资源加载超时，请检查网络后重试',
  /** §8 router not ready. */
  routerNotReady: 'H5路由尚未就绪，请稍后重试',
} as const
