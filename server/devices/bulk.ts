// Bulk reboot / reset: the single operation on each chosen device, each device's outcome reported on its own.
import type { BulkItemResult } from '../../worker/protocol/devices.ts'
import { MAX_DEVICES_PER_ACCOUNT } from '../../worker/protocol/constants.ts'
import type { AuthUser } from '../context.ts'
import { DomainError } from '../http/errors.ts'
import { usableDeviceNames } from './access.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import type { DeviceServices } from './services.ts'

export const bulk = async (
  s: DeviceServices,
  user: AuthUser,
  userCardIds: ReadonlyArray<number>,
  op: (s: DeviceServices, user: AuthUser, userCardId: number) => Promise<unknown>,
): Promise<BulkItemResult[]> => {
  const ids = [...new Set(userCardIds)]
  if (ids.length === 0) throw deviceError(DeviceStatus.invalidPhone, DeviceMsg.noDevicesChosen)
  if (ids.length > MAX_DEVICES_PER_ACCOUNT) throw deviceError(DeviceStatus.limit, `一次最多操作${MAX_DEVICES_PER_ACCOUNT}台云手机`)
  // only devices the caller may use are named; another user's device and a missing one look the same
  const names = await usableDeviceNames(s.db, user.id, ids)
  const results: BulkItemResult[] = []
  for (const userCardId of ids) {
    const diskName = names.get(userCardId)
    if (diskName === undefined) {
      results.push({ userCardId, diskName: String(userCardId), ok: false, msg: DeviceMsg.notFoundOrNotYours })
      continue
    }
    try {
      await op(s, user, userCardId)
      results.push({ userCardId, diskName, ok: true, msg: '操作成功' })
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      results.push({ userCardId, diskName, ok: false, msg: error.msg })
    }
  }
  return results
}
