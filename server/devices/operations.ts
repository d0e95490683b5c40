// Single-device operations: connect (5200 while restarting), reboot, factory reset and one-click repair.
// Owner and authorised user may connect, reboot and repair; only the owner resets.
import type { ConnectReady, OperationAccepted } from '../../worker/protocol/devices.ts'
import type { AuthUser } from '../context.ts'
import { accessDevice, ownerAndGrantees, requireNotExpired, requireOwner } from './access.ts'
import { busyState, markBusy, recordConnect, requireNotBusy } from './busy.ts'
import { endDeviceCardTokens, issueCardToken } from './card-tokens.ts'
import { wipePhoneFiles } from '../files/phone-file-wipe.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import { DomainError } from '../http/errors.ts'
import { UNAUTHORIZED_MSG } from '../http/route.ts'
import { pushTo, type DeviceServices } from './services.ts'

/**
 * The reference server's phones are simulated and streamed as scrcpy H.264 over the phone stream (`streamMode:
 * 'scrcpy'`, worker/protocol/stream.ts); `internetHttps` is this server's own origin. A real backend leaves streamMode
 * out and the viewer uses the frame.
 */
export const connect = async (s: DeviceServices, user: AuthUser, userCardId: number, origin: string): Promise<ConnectReady> => {
  const { device } = await accessDevice(s.db, user.id, userCardId)
  requireNotExpired(device, s.clock)
  const busy = await busyState(s.db, device.id, s.clock)
  if (busy) throw deviceError(DeviceStatus.starting, DeviceMsg.starting, { starting: true, progress: busy.progress })
  // the token lives while the caller's session does (card-tokens.ts); a logout that won the race leaves none to give
  const cardToken = await issueCardToken(s.db, device.id, user)
  if (cardToken === null) throw new DomainError(401, UNAUTHORIZED_MSG)
  await recordConnect(s.db, device.id, s.clock)
  return {
    internetHttps: origin,
    sn: `SN${device.user_card_id}`,
    userCardId: device.user_card_id,
    localIp: `10.0.${(device.id >> 8) & 255}.${device.id & 255}`,
    cardToken,
    streamMode: 'scrcpy',
  }
}

const restart = async (s: DeviceServices, deviceId: number, reason: string, ms: number): Promise<number> => {
  const seconds = await markBusy(s.db, deviceId, reason, ms, s.clock)
  s.sim.kick(deviceId, 'restarting')
  return seconds
}

export const reboot = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<OperationAccepted> => {
  const { device } = await accessDevice(s.db, user.id, userCardId)
  requireNotExpired(device, s.clock)
  await requireNotBusy(s.db, device.id, s.clock)
  return { userCardId, busySeconds: await restart(s, device.id, 'reboot', s.clock.rebootMs) }
}

export const reset = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<OperationAccepted> => {
  const access = await accessDevice(s.db, user.id, userCardId)
  requireOwner(access, DeviceMsg.granteeCannotReset)
  requireNotExpired(access.device, s.clock)
  await requireNotBusy(s.db, access.device.id, s.clock)
  // a reset phone starts afresh: every card token of it ends (its viewers connect again for new ones), its files go
  await endDeviceCardTokens(s.db, access.device.id)
  await s.files.remove(await wipePhoneFiles(s.db, access.device.id))
  const busySeconds = await restart(s, access.device.id, 'reset', s.clock.busyMs)
  s.sim.resetPhone(access.device.id)
  return { userCardId, busySeconds }
}

/**
 * Repair moves the instance to a healthy host: the device restarts and its users get changeCard for the same card
 * (a viewer that started the repair only clears its repair flag; others are sent home to re-enter).
 */
export const repair = async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<OperationAccepted> => {
  const { device } = await accessDevice(s.db, user.id, userCardId)
  requireNotExpired(device, s.clock)
  await requireNotBusy(s.db, device.id, s.clock)
  const busySeconds = await restart(s, device.id, 'repair', s.clock.busyMs)
  const users = await ownerAndGrantees(s.db, device.id)
  await pushTo(s, users.map((u) => u.id), 'changeCard', { userCardId: device.user_card_id, diskName: device.disk_name })
  return { userCardId, busySeconds }
}
