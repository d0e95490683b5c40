// The device list of a user: devices they own plus devices authorised to them, with validTime computed now.
import type { Kysely } from 'kysely'
import type { Device, VipTier } from '../../worker/protocol/devices.ts'
import type { Database } from '../db/schema.ts'
import { AuthDirection, minutesLeft, PhoneAuthStatus } from '../../worker/protocol/domain.ts'


export const listDevices = async (db: Kysely<Database>, userId: number, now = Date.now()): Promise<Device[]> => {
  const rows = await db
    .selectFrom('devices')
    .innerJoin('users as owner', 'owner.id', 'devices.owner_id')
    .select([
      'devices.id', 'devices.user_card_id', 'devices.owner_id', 'devices.disk_name', 'devices.buy_vip_type',
      'devices.expires_at', 'devices.room', 'devices.free_trial', 'devices.phone_type', 'devices.android_version',
      'devices.preview_url', 'owner.username as owner_username',
    ])
    .select((eb) => [
      eb.exists(eb.selectFrom('device_auths').select('device_auths.id').whereRef('device_auths.device_id', '=', 'devices.id')).as('has_auth'),
    ])
    .where((eb) =>
      eb.or([
        eb('devices.owner_id', '=', userId),
        eb('devices.id', 'in', eb.selectFrom('device_auths').select('device_auths.device_id').where('device_auths.grantee_id', '=', userId)),
      ]),
    )
    .orderBy('devices.user_card_id')
    .execute()
  return rows.map((r) => {
    const authorisedToMe = r.owner_id !== userId
    return {
      id: r.id,
      userCardId: r.user_card_id,
      diskName: r.disk_name,
      buyVipType: r.buy_vip_type as VipTier,
      validTime: minutesLeft(new Date(r.expires_at), now),
      phoneAuthStatus: authorisedToMe || r.has_auth ? PhoneAuthStatus.authorised : PhoneAuthStatus.none,
      authPhone: authorisedToMe ? AuthDirection.toMe : AuthDirection.byMe,
      room: r.room,
      freeTrial: r.free_trial,
      userName: r.owner_username,
      phoneType: r.phone_type,
      androidVersion: r.android_version,
      previewUrl: r.preview_url,
    }
  })
}
