// Devices slice: the cloud phone list and its loading / error state.
import type { CoreEvent } from '../../../worker/protocol/events.ts'
import type { Snapshot } from '../../../worker/protocol/commands.ts'

export type DevicesState = Snapshot['devices']

export const initialDevices: DevicesState = { list: [], fetchedAt: null, loading: false, error: null }

export const reduceDevices = (state: DevicesState, event: CoreEvent): DevicesState => {
  switch (event._tag) {
    case 'DeviceListLoading':
      return { ...state, loading: event.loading }
    case 'DeviceListLoaded':
      return { list: event.devices, fetchedAt: event.fetchedAt, loading: false, error: null }
    case 'DeviceListFailed':
      return { ...state, loading: false, error: event.msg }
    default:
      return state
  }
}
