// System name slice: the configuration behind the `{systemName}云手机` title (§1).
import type { CoreEvent } from '../events.ts'

export type SystemNameSlice = string | null

export const initialSystemName: SystemNameSlice = null

export const reduceSystemName = (state: SystemNameSlice, event: CoreEvent): SystemNameSlice =>
  event._tag === 'SystemNameChanged' ? event.systemName : state
