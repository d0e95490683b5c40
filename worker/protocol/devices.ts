// Devices area ("cards": one rented cloud phone is a user card), api-notes "Devices".
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { AccountText, FiniteIn, Id, ListOf, NameText, PageRequest } from './limits.ts'

/** a bulk request names at most this many devices (more than an account may own). */
const MAX_DEVICES_PER_REQUEST = 100

export const VipTier = Schema.Literals(['VIP', 'SVIP', 'STAR', 'STARPRO'])
export type VipTier = typeof VipTier.Type

export const Device = Schema.Struct({
  id: Schema.Number,
  userCardId: Schema.Number,
  diskName: Schema.String,
  buyVipType: VipTier,
  /** minutes of rental left; <= 0 is expired. */
  validTime: Schema.Number,
  /** 1 when an authorisation exists on this device. */
  phoneAuthStatus: Schema.Number,
  /** with phoneAuthStatus 1: 0 = I authorised it to someone, 1 = someone authorised it to me. */
  authPhone: Schema.Number,
  room: Schema.String,
  freeTrial: Schema.Number,
  userName: Schema.String,
  phoneType: Schema.String,
  androidVersion: Schema.String,
  previewUrl: Schema.String,
})
export type Device = typeof Device.Type

export const UserCardIdQuery = Schema.Struct({ userCardId: Id })

export const ConnectRequest = Schema.Struct({
  userCardId: Id,
  coordinatesLat: Schema.optional(FiniteIn(-90, 90)),
  coordinatesLng: Schema.optional(FiniteIn(-180, 180)),
})
export const ConnectResult = Schema.Struct({
  internetHttps: Schema.String,
  sn: Schema.String,
  userCardId: Schema.Number,
  localIp: Schema.String,
  cardToken: Schema.String,
})

/**
 * How the viewer shows the live screen: the service's viewer page in a frame, or the phone's scrcpy stream through the
 * core (worker/protocol/stream.ts; the reference server's phones).
 */
export const StreamMode = Schema.Literals(['frame', 'scrcpy'])
export type StreamMode = typeof StreamMode.Type

/** Connect answered with status 5200: the device is still starting (progress 0..100); the client retries. */
export const ConnectStarting = Schema.Struct({ starting: Schema.Literal(true), progress: Schema.Number })
export type ConnectStarting = typeof ConnectStarting.Type

/** Connect answered with status 0. `streamMode` absent means `frame` (the service's own viewer page). */
export const ConnectReady = Schema.Struct({ ...ConnectResult.fields, streamMode: Schema.optional(StreamMode) })
export type ConnectReady = typeof ConnectReady.Type

export const ConnectResponse = Schema.Union([ConnectStarting, ConnectReady])
export type ConnectResponse = typeof ConnectResponse.Type

export const UserCardIdsBody = Schema.Struct({ userCardIds: ListOf(Id, MAX_DEVICES_PER_REQUEST) })

/** One device's outcome in a bulk operation. */
export const BulkItemResult = Schema.Struct({
  userCardId: Schema.Number,
  diskName: Schema.String,
  ok: Schema.Boolean,
  msg: Schema.String,
})
export type BulkItemResult = typeof BulkItemResult.Type

/** An accepted operation that makes the device busy (restarting) for `busySeconds`. */
export const OperationAccepted = Schema.Struct({ userCardId: Schema.Number, busySeconds: Schema.Number })
export type OperationAccepted = typeof OperationAccepted.Type

const page = <S extends Schema.Top>(item: S) => Schema.Struct({ list: Schema.Array(item), total: Schema.Number })

/** One-tap new device: the old card is replaced by a new one with the same remaining time. */
export const ReplacementResult = Schema.Struct({
  oldUserCardId: Schema.Number,
  newUserCardId: Schema.Number,
  diskName: Schema.String,
})
export type ReplacementResult = typeof ReplacementResult.Type

/** A new-device message (replacementInfo). Times are ISO strings. */
export const ReplacementRecord = Schema.Struct({
  id: Schema.Number,
  oldUserCardId: Schema.Number,
  newUserCardId: Schema.Number,
  diskName: Schema.String,
  ctime: Schema.String,
})
export type ReplacementRecord = typeof ReplacementRecord.Type

export const TransferRequest = Schema.Struct({ userCardIds: ListOf(Id, MAX_DEVICES_PER_REQUEST), phone: AccountText })
export const TransferResult = Schema.Struct({ count: Schema.Number, phone: Schema.String })

/** A transfer seen by one of its two users: `out` for the giver, `in` for the receiver. */
export const TransferRecord = Schema.Struct({
  id: Schema.Number,
  userCardId: Schema.Number,
  diskName: Schema.String,
  direction: Schema.Literals(['out', 'in']),
  counterpartPhone: Schema.String,
  ctime: Schema.String,
})
export type TransferRecord = typeof TransferRecord.Type
export const TransferRecordPage = page(TransferRecord)

/** Timer types (spec §3, decisions.md): 1 特权定时, 2 and 3 普通定时. */
export const TimerType = Schema.Literals([1, 2, 3])
export type TimerType = typeof TimerType.Type

/** A shutdown (offline) record of a device ended by a timer. */
export const TimingRecord = Schema.Struct({
  id: Schema.Number,
  userCardId: Schema.Number,
  diskName: Schema.String,
  timerType: TimerType,
  /** how long the timer ran, in minutes. */
  durationMinutes: Schema.Number,
  startTime: Schema.String,
  offlineTime: Schema.String,
})
export type TimingRecord = typeof TimingRecord.Type
export const TimingRecordPage = page(TimingRecord)
export const TimingRecordRequest = Schema.Struct({ ...PageRequest.fields, userCardId: Schema.optional(Id) })

/** Spec §3: the phone authorisation list is asked for with authType 0 (devices I authorised); 1 = authorised to me. */
export const AuthType = Schema.Literals([0, 1])
export const PhoneAuthRecord = Schema.Struct({
  id: Schema.Number,
  userCardId: Schema.Number,
  diskName: Schema.String,
  authType: AuthType,
  ownerPhone: Schema.String,
  authPhone: Schema.String,
  /** 0 = in force, 1 = cancelled. */
  status: Schema.Literals([0, 1]),
  ctime: Schema.String,
  cancelTime: Schema.NullOr(Schema.String),
})
export type PhoneAuthRecord = typeof PhoneAuthRecord.Type
export const SetPhoneAuthRequest = Schema.Struct({ userCardId: Id, phone: AccountText })
export const IdQuery = Schema.Struct({ id: Id })

/** Recommended cloud phones: my usable devices, most used first. */
export const CommonUserCard = Schema.Struct({
  userCardId: Schema.Number,
  diskName: Schema.String,
  buyVipType: VipTier,
  validTime: Schema.Number,
  phoneType: Schema.String,
  androidVersion: Schema.String,
  authPhone: Schema.Number,
  phoneAuthStatus: Schema.Number,
  connectCount: Schema.Number,
  lastConnectTime: Schema.NullOr(Schema.String),
})
export type CommonUserCard = typeof CommonUserCard.Type

export const DeviceModel = Schema.Struct({
  manufacturer: Schema.String,
  brand: Schema.String,
  model: Schema.String,
  marketName: Schema.String,
})
export type DeviceModel = typeof DeviceModel.Type

/** The identity a cloud phone presents to apps; `modified` is false while it shows the factory values. */
export const ModelParameters = Schema.Struct({
  userCardId: Schema.Number,
  manufacturer: Schema.String,
  brand: Schema.String,
  model: Schema.String,
  marketName: Schema.String,
  imei: Schema.String,
  serialNo: Schema.String,
  androidId: Schema.String,
  modified: Schema.Boolean,
})
export type ModelParameters = typeof ModelParameters.Type
export const UpdateModelRequest = Schema.Struct({ userCardId: Id, manufacturer: NameText, model: NameText })

export const deviceEndpoints = {
  getDeviceList: endpoint({
    name: 'getDeviceList', method: 'GET', repeatable: true, path: '/api/resources/v6/client/device/info/getDeviceList',
    request: NoPayload, response: Schema.Array(Device),
  }),
  rebootDevice: endpoint({
    name: 'rebootDevice', method: 'GET', repeatable: false, idempotent: true, path: '/api/resources/api/usercard/reboot',
    request: UserCardIdQuery, response: OperationAccepted,
  }),
  /** data is ConnectStarting with status 5200 (retry), ConnectReady with status 0. */
  connect: endpoint({
    name: 'connect', method: 'POST', repeatable: true, path: '/api/resources/user/cloud/connect',
    request: ConnectRequest, response: ConnectResponse, silentFailure: true,
  }),
  resetDevice: endpoint({
    name: 'resetDevice', method: 'GET', repeatable: false, idempotent: true, path: '/api/resources/api/usercard/reset',
    request: UserCardIdQuery, response: OperationAccepted,
  }),
  bulkReboot: endpoint({
    name: 'bulkReboot', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/card/resources/reboot',
    request: UserCardIdsBody, response: Schema.Array(BulkItemResult),
  }),
  bulkReset: endpoint({
    name: 'bulkReset', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/card/resources/reset',
    request: UserCardIdsBody, response: Schema.Array(BulkItemResult),
  }),
  oneKeyRepair: endpoint({
    name: 'oneKeyRepair', method: 'GET', repeatable: false, idempotent: true, path: '/api/resources/card/resources/oneKeyRepair',
    request: UserCardIdQuery, response: OperationAccepted,
  }),
  replaceDevice: endpoint({
    name: 'replaceDevice', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/v1/cardStatus/change/mobilephone',
    request: UserCardIdQuery, response: ReplacementResult,
  }),
  /** ours: the new-device messages of replacementInfo. */
  replacementRecords: endpoint({
    name: 'replacementRecords', method: 'GET', repeatable: true, path: '/api/resources/v1/cardStatus/change/records',
    request: NoPayload, response: Schema.Array(ReplacementRecord),
  }),
  getCommonUserCard: endpoint({
    name: 'getCommonUserCard', method: 'GET', repeatable: true, path: '/api/resources/user/cloud/getCommonUserCard',
    request: NoPayload, response: Schema.Array(CommonUserCard),
  }),
  transferDevices: endpoint({
    name: 'transferDevices', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/v5/cloudMachine/transfer/operate',
    request: TransferRequest, response: TransferResult,
  }),
  transferRecords: endpoint({
    name: 'transferRecords', method: 'POST', repeatable: true, path: '/api/resources/v5/cloudMachine/transfer/getTransferRecodeByClient',
    request: PageRequest, response: TransferRecordPage,
  }),
  timingRecords: endpoint({
    name: 'timingRecords', method: 'POST', repeatable: true, path: '/api/resources/yearMember/getUserCardOfflineRecordClient',
    request: TimingRecordRequest, response: TimingRecordPage,
  }),
  /** Phone authorisation paths are not given by the spec beyond their names; these are ours. */
  getPhoneAuthNewRecord: endpoint({
    name: 'getPhoneAuthNewRecord', method: 'GET', repeatable: true, path: '/api/resources/v5/phoneAuth/getPhoneAuthNewRecord',
    request: Schema.Struct({ authType: AuthType }), response: Schema.Array(PhoneAuthRecord),
  }),
  phoneAuthDetails: endpoint({
    name: 'phoneAuthDetails', method: 'GET', repeatable: true, path: '/api/resources/v5/phoneAuth/details',
    request: IdQuery, response: PhoneAuthRecord,
  }),
  /** PUT on the details cancels the authorisation (owner only). */
  cancelPhoneAuth: endpoint({
    name: 'cancelPhoneAuth', method: 'PUT', repeatable: false, idempotent: true, path: '/api/resources/v5/phoneAuth/details',
    request: IdQuery, response: PhoneAuthRecord,
  }),
  setPhoneAuthUserPhone: endpoint({
    name: 'setPhoneAuthUserPhone', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/v5/phoneAuth/setPhoneAuthUserPhone',
    request: SetPhoneAuthRequest, response: PhoneAuthRecord,
  }),
  getUserCardModelParameters: endpoint({
    name: 'getUserCardModelParameters', method: 'GET', repeatable: true, path: '/api/resources/v5/model/parameters/getUserCardModelParameters',
    request: UserCardIdQuery, response: ModelParameters,
  }),
  getManufacturer: endpoint({
    name: 'getManufacturer', method: 'GET', repeatable: true, path: '/api/resources/v5/model/parameters/getManufacturer',
    request: NoPayload, response: Schema.Array(Schema.String),
  }),
  getModelParameters: endpoint({
    name: 'getModelParameters', method: 'GET', repeatable: true, path: '/api/resources/v5/model/parameters/getModelParameters',
    request: Schema.Struct({ manufacturer: NameText }), response: Schema.Array(DeviceModel),
  }),
  /** Changing the model restarts the device (busy like a reboot). */
  updateModelParameters: endpoint({
    name: 'updateModelParameters', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/v5/model/parameters/update',
    request: UpdateModelRequest, response: ModelParameters,
  }),
  restoreModelParameters: endpoint({
    name: 'restoreModelParameters', method: 'POST', repeatable: false, idempotent: true, path: '/api/resources/v5/model/parameters/restore',
    request: UserCardIdQuery, response: ModelParameters,
  }),
} as const
