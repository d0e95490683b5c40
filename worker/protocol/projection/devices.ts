// Devices slice: the cloud phone list and its loading / error state.
import type { CoreEvent } from '../events.ts'
import type { Device } from '../devices.ts'

export interface DevicesSlice {
  readonly list: ReadonlyArray<Device>
  readonly fetchedAt: number | null
  readonly loading: boolean
  readonly error: string | null
}

export const initialDevices: DevicesSlice = { list: [], fetchedAt: null, loading: false, error: null }

export const reduceDevices = (state: DevicesSlice, event: CoreEvent): DevicesSlice => {
  switch (event._tag) {
    case 'DeviceListLoading':
      return state.loading === event.loading ? state : { ...state, loading: event.loading }
    case 'DeviceListLoaded':
      return { list: event.devices, fetchedAt: event.fetchedAt, loading: false, error: null }
    case 'DeviceListFailed':
      return { ...state, loading: false, error: event.msg }
    default:
      return state
  }
}
