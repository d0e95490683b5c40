// Devices area ("cards": one rented cloud phone is a user card), api-notes "Devices".
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'

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

export const UserCardIdQuery = Schema.Struct({ userCardId: Schema.Number })

export const ConnectRequest = Schema.Struct({
  userCardId: Schema.Number,
  coordinatesLat: Schema.optional(Schema.Number),
  coordinatesLng: Schema.optional(Schema.Number),
})
export const ConnectResult = Schema.Struct({
  internetHttps: Schema.String,
  sn: Schema.String,
  userCardId: Schema.Number,
  localIp: Schema.String,
  cardToken: Schema.String,
})

export const deviceEndpoints = {
  getDeviceList: endpoint({
    name: 'getDeviceList', method: 'GET', path: '/api/resources/v6/client/device/info/getDeviceList',
    request: NoPayload, response: Schema.Array(Device),
  }),
  rebootDevice: endpoint({
    name: 'rebootDevice', method: 'GET', path: '/api/resources/api/usercard/reboot',
    request: UserCardIdQuery, response: Schema.Unknown,
  }),
  connect: endpoint({
    name: 'connect', method: 'POST', path: '/api/resources/user/cloud/connect',
    request: ConnectRequest, response: ConnectResult, silentFailure: true,
  }),
} as const
