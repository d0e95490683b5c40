// Group control's choice of phones, without React: which phones may be chosen (the server checks again, per phone),
// the tier and Android-version shortcuts, and the choice kept in step with the device list (a phone whose
// authorisation was removed, that expired or left the account drops out of the group).
import type { Device } from '../../../../worker/protocol/devices.ts'
import { MAX_DEVICES_PER_ACCOUNT } from '../../../../worker/protocol/constants.ts'
import { isExpired } from '../display.ts'

/** the list holds only the caller's own and authorised phones (the server's getDeviceList); expired ones cannot act. */
export const choosable = (d: Device): boolean => !isExpired(d.validTime)

/** the values a shortcut offers (each tier, each Android version), in the list's order, without repeats. */
export const tiersOf = (devices: ReadonlyArray<Device>): ReadonlyArray<string> => [...new Set(devices.filter(choosable).map((d) => d.buyVipType))]
export const androidVersionsOf = (devices: ReadonlyArray<Device>): ReadonlyArray<string> =>
  [...new Set(devices.filter(choosable).map((d) => d.androidVersion).filter((v) => v !== ''))]

/** toggles a whole kind: adds every choosable phone of it, or removes them all when all are chosen already. */
export const toggleKind = (devices: ReadonlyArray<Device>, chosen: ReadonlyArray<number>, match: (d: Device) => boolean): number[] => {
  const ids = devices.filter((d) => choosable(d) && match(d)).map((d) => d.userCardId)
  const all = ids.length > 0 && ids.every((id) => chosen.includes(id))
  const next = all ? chosen.filter((id) => !ids.includes(id)) : [...chosen, ...ids.filter((id) => !chosen.includes(id))]
  return next.slice(0, MAX_DEVICES_PER_ACCOUNT)
}

/** the chosen phones still choosable in this list (in the choice's order), and those that dropped out. */
export const pruneChoice = (devices: ReadonlyArray<Device>, chosen: ReadonlyArray<number>): { kept: number[]; dropped: number[] } => {
  const usable = new Set(devices.filter(choosable).map((d) => d.userCardId))
  return { kept: chosen.filter((id) => usable.has(id)), dropped: chosen.filter((id) => !usable.has(id)) }
}

/** `ids` of the route: comma-separated positive integers, anything else ignored. */
export const parseIds = (raw: string | undefined): number[] =>
  [...new Set((raw ?? '').split(',').map((s) => Number(s)).filter((n) => Number.isInteger(n) && n > 0))].slice(0, MAX_DEVICES_PER_ACCOUNT)
