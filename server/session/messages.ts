// Status codes and Chinese messages of the SMS, registration, password-reset and phone-binding rules (ours; none of
// them is a session-ending code of §8).
import { OwnerProofStatus } from '../../worker/protocol/session.ts'

export const AuthStatus = {
  phoneInvalid: 1010,
  codeMissing: 1011,
  codeExpired: 1012,
  codeWrong: 1013,
  tooFrequent: 1014,
  phoneRegistered: 1015,
  phoneUnregistered: 1016,
  phoneTaken: 1017,
  inviteUnknown: 1018,
  passwordInvalid: 1019,
  loginRequired: 1020,
  ownerProofRequired: OwnerProofStatus.required,
  ownerProofWrong: OwnerProofStatus.expired,
  passwordWrong: 1024,
} as const

export const AuthMsg = {
  phoneInvalid: '请输入正确的手机号',
  codeMissing: '请先获取验证码',
  codeExpired: '验证码已失效，请重新获取',
  codeWrong: '验证码错误',
  tooFrequent: (seconds: number) => `验证码发送过于频繁，请${seconds}秒后再试`,
  phoneRegistered: '该手机号已注册',
  phoneUnregistered: '该手机号未注册',
  phoneTaken: '该手机号已被其他账号绑定',
  inviteUnknown: '邀请码不存在',
  passwordInvalid: '密码格式不正确',
  loginRequired: '请先登录',
  ownerProofRequired: '请先验证原手机号',
  ownerProofWrong: '原手机号验证已失效，请重新获取验证码',
  passwordWrong: '登录密码错误',
  /** the push to the sessions a phone change ended (a forcedOfflineMsg: the tab shows it in its 提示 modal). */
  phoneChangedOffline: '账号绑定的手机号已更换，请重新登录',
  /** the notice to the old phone (an SMS; the reference server writes it to its log, like the codes). */
  phoneChangedNotice: (masked: string) => `您的账号绑定手机号已更换为${masked}，其他设备已退出登录。如非本人操作，请立即通过验证码登录并联系客服。`,
} as const
