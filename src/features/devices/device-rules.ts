// Which operations a device in my list offers: authorised-to-me devices can be used (viewer, reboot, repair) but not
// reset, replaced, transferred, authorised onwards, renewed, upgraded or re-modelled; expired devices offer only
// renewal; a device I authorised out is transferred, authorised again or upgraded only once that is cancelled.
import type { Device } from '../../../worker/protocol/devices.ts'
import { authMarker, isExpired } from './display.ts'

export type DeviceOp = 'open' | 'reboot' | 'repair' | 'reset' | 'replace' | 'transfer' | 'authorise' | 'renew' | 'upgrade' | 'model'

const ownerOnly: ReadonlySet<DeviceOp> = new Set(['reset', 'replace', 'transfer', 'authorise', 'renew', 'upgrade', 'model'])

export const isAuthorisedToMe = (d: Pick<Device, 'phoneAuthStatus' | 'authPhone'>): boolean => authMarker(d) === 'authorisedToMe'

export const canDo = (d: Pick<Device, 'phoneAuthStatus' | 'authPhone' | 'validTime'>, op: DeviceOp): boolean => {
  if (isAuthorisedToMe(d) && ownerOnly.has(op)) return false
  if (op === 'renew') return true
  if (isExpired(d.validTime)) return false
  // a device I authorised to someone must get the authorisation cancelled before it is moved, authorised again or
  // upgraded (the reference server's upgrade refuses any device with an authorisation: server/pay/pay-service.ts)
  if ((op === 'transfer' || op === 'authorise' || op === 'upgrade') && authMarker(d) === 'authorisedByMe') return false
  return true
}
