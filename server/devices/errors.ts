// Status codes and Chinese messages of device-operation refusals (the route helper turns them into envelopes).
import { DomainError, Status } from '../http/errors.ts'

export const DeviceStatus = {
  invalidPhone: Status.invalidPayload,
  notFound: Status.notFound,
  forbidden: Status.forbidden,
  expired: Status.deviceExpired,
  /** the device refusals have the 12xx block (session 10xx, account 11xx). */
  busy: 1201,
  conflict: 1202,
  limit: 1203,
  starting: Status.deviceStarting,
} as const

export const DeviceMsg = {
  /** one refusal, single-device and bulk alike, for a device that does not exist and one of another user (no
   * enumeration: which user card ids exist is nobody's business); status DeviceStatus.notFound (1004). */
  notFoundOrNotYours: '云手机不存在或无权操作',
  expired: '云手机已过期，请续费后使用',
  busy: '云手机正在重启中，请稍后再试',
  starting: '云手机启动中，请稍候',
  granteeCannotReset: '授权给您的云手机不能恢复出厂设置',
  granteeCannotReplace: '授权给您的云手机不能一键换机',
  granteeCannotTransfer: '授权给您的云手机不能转移',
  granteeCannotAuthorise: '授权给您的云手机不能再授权',
  granteeCannotChangeModel: '授权给您的云手机不能修改机型参数',
  invalidPhone: '请输入正确的手机号',
  phoneNotRegistered: '该手机号未注册',
  notToSelf: '不能操作给自己',
  alreadyAuthorised: '该云手机已授权给其他用户，请先取消授权',
  authorisedOut: (diskName: string) => `云手机「${diskName}」已授权给他人，请先取消授权`,
  authRecordNotFound: '授权记录不存在',
  onlyOwnerCancels: '只有云手机所有者可以取消授权',
  alreadyCancelled: '该授权已取消',
  noDevicesChosen: '请选择云手机',
  tooManyDevices: '对方云手机数量已达上限',
  replacedRecently: '每台云手机24小时内只能换机一次',
  modelNotFound: '机型不存在',
} as const

export const deviceError = (status: number, msg: string, data: unknown = null): DomainError => new DomainError(status, msg, data)
