// Recommended cloud phones: the caller's usable (not expired) devices, owned or authorised, most connected first.
import type { CommonUserCard, VipTier } from '../../worker/protocol/devices.ts'
import type { AuthUser } from '../context.ts'
import type { DeviceServices } from './services.ts'
import { AuthDirection, minutesLeft, PhoneAuthStatus } from '../../worker/protocol/domain.ts'

const LIMIT = 10

export const commonUserCards = async (s: DeviceServices, user: AuthUser): Promise<CommonUserCard[]> => {
  const now = new Date(s.clock.now())
  const rows = await s.db.selectFrom('devices as d')
    .leftJoin('device_runtime as rt', 'rt.device_id', 'd.id')
    .select([
      'd.id', 'd.user_card_id', 'd.owner_id', 'd.disk_name', 'd.buy_vip_type', 'd.expires_at', 'd.phone_type',
      'd.android_version', 'rt.connect_count', 'rt.last_connect_at',
    ])
    .select((eb) => [
      eb.exists(eb.selectFrom('device_auths').select('device_auths.id').whereRef('device_auths.device_id', '=', 'd.id')).as('has_auth'),
    ])
    .where('d.expires_at', '>', now)
    .where((eb) => eb.or([
      eb('d.owner_id', '=', user.id),
      eb('d.id', 'in', eb.selectFrom('device_auths').select('device_auths.device_id').where('device_auths.grantee_id', '=', user.id)),
    ]))
    .execute()
  return rows
    .map((r) => {
      const toMe = r.owner_id !== user.id
      return {
        userCardId: r.user_card_id,
        diskName: r.disk_name,
        buyVipType: r.buy_vip_type as VipTier,
        validTime: minutesLeft(new Date(r.expires_at), now.getTime()),
        phoneType: r.phone_type,
        androidVersion: r.android_version,
        authPhone: toMe ? AuthDirection.toMe : AuthDirection.byMe,
        phoneAuthStatus: toMe || r.has_auth ? PhoneAuthStatus.authorised : PhoneAuthStatus.none,
        connectCount: r.connect_count ?? 0,
        lastConnectTime: r.last_connect_at ? new Date(r.last_connect_at).toISOString() : null,
      }
    })
    .sort((a, b) =>
      b.connectCount - a.connectCount
      || (b.lastConnectTime ?? '').localeCompare(a.lastConnectTime ?? '')
      || b.validTime - a.validTime)
    .slice(0, LIMIT)
}
