// System name slice: the configuration behind the `{systemName}云手机` title (§1).
import type { CoreEvent } from '../../../worker/protocol/events.ts'

export type SystemNameState = string | null

export const initialSystemName: SystemNameState = null

export const reduceSystemName = (state: SystemNameState, event: CoreEvent): SystemNameState =>
  event._tag === 'SystemNameChanged' ? event.systemName : state
