// Every user-facing string the core produces (product-spec §8, decisions.md), in the tab catalogue's shape: sections
// of key -> text (or a function of the values it names). src/i18n/zh-CN.sections.ts shows them as zhCN.core and
// zhCN.dialog; they live here because the worker imports nothing of the tab.
export const core = {
  unauthorized: '登录失效，请重新登录！',
  loggedInElsewhere: '账号已在别处登录！',
  loginExpired: '登录信息已过期，请重新登录。',
  otherClientLogin: '账号已在其他端登录，请重新登录',
  userCancelled: '此用户已被注销，请登录其他账号',
  serverError: '服务器错误',
  /** a keyed write (issue 40) neither answered nor settled as not applied: the core goes on asking the server. */
  writeUnconfirmed: '网络异常，操作结果确认中，恢复连接后将自动告知，请勿重复操作',
  /** the answer of such a write, learned later: applied. (Not applied: the server's own words, NOT_APPLIED_MSG.) */
  writeConfirmed: '之前提交的操作已完成',
  /** a command a tab sent that does not match the contract (worker/protocol/commands.ts): a bug, said plainly. */
  invalidCommand: (command: string, reason: string) => `命令无效（${command}）：${reason}`,
  cardSwitched: '云手机已切换，请重新进入',
  removeAuthTitle: '授权取消通知',
  removeAuthContent: (diskName: string) => `云手机「${diskName}」的授权已被取消，已为您退出该云手机`,
} as const

/** The words of a modal, the core's (removeAuth) and the tab's own notices (forced offline, maintenance) alike. */
export const dialog = {
  tipTitle: '提示',
  ok: '确定',
} as const
