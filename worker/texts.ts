// Every user-facing string the core produces (product-spec §8, decisions.md), in one place.
export const Texts = {
  unauthorized: '登录失效，请重新登录！',
  loggedInElsewhere: '账号已在别处登录！',
  loginExpired: '登录信息已过期，请重新登录。',
  otherClientLogin: '账号已在其他端登录，请重新登录',
  userCancelled: '此用户已被注销，请登录其他账号',
  serverError: '服务器错误',
  tipTitle: '提示',
  ok: '确定',
  cardSwitched: '云手机已切换，请重新进入',
  removeAuthTitle: '授权取消通知',
  removeAuthContent: (diskName: string) => `云手机「${diskName}」的授权已被取消，已为您退出该云手机`,
} as const
