// Strings of the password login screen and the sign-in form checks.
export const validators = {
  phoneRequired: '请输入手机号',
  phoneInvalid: '请输入正确的手机号',
  passwordRequired: '请输入密码',
  codeRequired: '请输入验证码',
  codeInvalid: (length: number) => `请输入${length}位数字验证码`,
} as const

export const login = {
  heading: '欢迎登录',
  phonePlaceholder: '请输入手机号',
  passwordPlaceholder: '请输入密码',
  submit: '登录',
  submitting: '登录中…',
  showPassword: '显示密码',
  hidePassword: '隐藏密码',
  agreementPrefix: '登录即表示同意',
  agreement: '《用户协议》',
  quickLogin: '验证码登录',
  register: '注册账号',
  forgotPassword: '忘记密码',
  invitedBy: (name: string) => `邀请人：${name}`,
  failed: '登录失败，请稍后重试',
} as const
