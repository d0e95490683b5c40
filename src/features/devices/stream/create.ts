// Picks the stream a connect result asks for: `streamMode: 'simulated'` (the reference server) or the service's
// viewer page in a frame (the default, as the real backend sends no streamMode).
import type { ConnectReady } from '../../../../worker/protocol/devices.ts'
import { createFrameViewerStream } from './frame-viewer.ts'
import { createSimulatedStream } from './simulated.ts'
import type { DeviceStream } from './types.ts'

export const createDeviceStream = (result: ConnectReady, origin: string): DeviceStream | null =>
  result.streamMode === 'simulated' ? createSimulatedStream(result, origin) : createFrameViewerStream(result)
