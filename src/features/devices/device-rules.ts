// Which operations a device in my list offers: authorised-to-me devices can be used (viewer, reboot, repair) but not
// reset, replaced, transferred, authorised onwards, renewed or re-modelled; expired devices offer only renewal.
import type { Device } from '../../../worker/protocol/devices.ts'
import { authMarker, isExpired } from './display.ts'

export type DeviceOp = 'open' | 'reboot' | 'repair' | 'reset' | 'replace' | 'transfer' | 'authorise' | 'renew' | 'model'

const ownerOnly: ReadonlySet<DeviceOp> = new Set(['reset', 'replace', 'transfer', 'authorise', 'renew', 'model'])

export const isAuthorisedToMe = (d: Pick<Device, 'phoneAuthStatus' | 'authPhone'>): boolean => authMarker(d) === 'authorisedToMe'

export const canDo = (d: Pick<Device, 'phoneAuthStatus' | 'authPhone' | 'validTime'>, op: DeviceOp): boolean => {
  if (isAuthorisedToMe(d) && ownerOnly.has(op)) return false
  if (op === 'renew') return true
  if (isExpired(d.validTime)) return false
  // a device I authorised to someone must get the authorisation cancelled before it is moved or authorised again
  if ((op === 'transfer' || op === 'authorise') && authMarker(d) === 'authorisedByMe') return false
  return true
}
