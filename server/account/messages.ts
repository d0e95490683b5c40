// Status codes and Chinese messages of the account rules (ours; none is a session-ending code of §8).

export const AccountStatus = {
  nicknameInvalid: 1101,
  ticketInvalid: 1102,
  securityCodeInvalid: 1103,
  realNameInvalid: 1104,
  idCardInvalid: 1105,
  alreadyVerified: 1106,
  idCardTaken: 1107,
  codeFormat: 1110,
  codeUnknown: 1111,
  codeUsed: 1112,
  codeExpired: 1113,
  codeNotDevice: 1114,
  deviceNotOwned: 1115,
  deviceLimit: 1116,
  couponStatusInvalid: 1117,
} as const

export const AccountMsg = {
  nicknameInvalid: '昵称需为1-16个字符',
  ticketInvalid: '验证已失效，请重新获取验证码',
  securityCodeInvalid: '安全码需为6位数字',
  realNameInvalid: '请输入正确的真实姓名',
  idCardInvalid: '身份证号码格式不正确',
  alreadyVerified: '您已完成实名认证',
  idCardTaken: '该身份证已认证其他账号',
  codeFormat: '请输入15位激活码',
  codeUnknown: '激活码不存在',
  codeUsed: '激活码已被使用',
  codeExpired: '激活码已过期',
  codeNotDevice: '该激活码不是云手机激活码',
  deviceNotOwned: '只能为自己的云手机使用激活码',
  deviceLimit: '云手机数量已达上限（60台）',
  couponStatusInvalid: '优惠券状态不正确',
} as const
