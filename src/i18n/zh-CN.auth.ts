// Strings of the SMS-code screens (quick login, code entry, registration, forgotten password, user agreement),
// phone binding and the in-app-browser cover page.
/** §5, decisions.md: verification-code button texts. */
export const smsCode = {
  idle: '获取验证码',
  counting: (seconds: number) => `${seconds}秒重新获取`,
  again: '重新获取',
} as const

/** The SMS-code screens: quick login, code entry, registration, forgotten password, user agreement. */
export const auth = {
  codePlaceholder: '请输入验证码',
  codeSent: '验证码已发送',
  sendFailed: '验证码发送失败，请稍后重试',
  passwordPlaceholder: '请输入6-16位字母和数字组合的密码',
  newPasswordPlaceholder: '请输入6-16位字母和数字组合的新密码',
  confirmPlaceholder: '请再次输入密码',
  passwordInvalid: '密码须为6-16位，且同时包含字母和数字',
  confirmRequired: '请再次输入密码',
  confirmMismatch: '两次输入的密码不一致',
  inviteCodePlaceholder: '邀请码（选填）',
  inviteCodeTooLong: (max: number) => `邀请码最多${max}位`,
  agreementPrefix: (action: string) => `${action}即表示同意`,
  agreement: '《用户协议》',
  failed: '操作失败，请稍后重试',
  quickHeading: '验证码登录',
  quickHint: '未注册的手机号验证后将自动创建账号',
  getCode: '获取验证码',
  sending: '发送中…',
  passwordLogin: '密码登录',
  codeHeading: '输入验证码',
  codeSentTo: (masked: string) => `验证码已发送至 ${masked}`,
  codeLogin: '登录',
  loggingIn: '登录中…',
  changePhone: '更换手机号',
  registerHeading: '注册账号',
  register: '注册',
  registering: '注册中…',
  registered: '注册成功',
  haveAccount: '已有账号？去登录',
  forgotHeading: '忘记密码',
  forgotHint: '验证手机号后设置新密码',
  resetSubmit: '确认修改',
  resetting: '提交中…',
  resetDone: '密码修改成功，请重新登录',
  agreementLoadFailed: '用户协议加载失败',
  retry: '重新加载',
} as const

export const bindPhone = {
  title: '绑定手机号',
  explain: '为保障账号安全，当前账号需要先绑定手机号后才能继续使用。',
  phonePlaceholder: '请输入要绑定的手机号',
  codePlaceholder: '请输入验证码',
  submit: '立即绑定',
  submitting: '绑定中…',
  codeSent: '验证码已发送',
  bound: '绑定成功',
  failed: '操作失败，请稍后重试',
  logout: '退出登录',
  /** 更换手机号: the old phone is proved first (issue 22 finding 2). */
  changeTitle: '更换手机号',
  changeExplain: (masked: string) => `为保障账号安全，请先验证原手机号 ${masked}，再绑定新手机号。更换后其他设备将退出登录。`,
  oldCodePlaceholder: '请输入原手机号收到的验证码',
} as const

export const cover = {
  title: '请在浏览器中打开',
  explain: '当前页面不支持在微信或QQ内置浏览器中使用。请点击右上角「···」，选择「在浏览器中打开」。',
} as const
