// Picks the stream a connect result asks for: `streamMode: 'scrcpy'` (the phone's real picture through the core) or
// the service's viewer page in a frame (the default, as the real backend sends no streamMode).
import type { ConnectReady } from '../../../../worker/protocol/devices.ts'
import type { CoreClient } from '../../../core/types.ts'
import { createFrameViewerStream } from './frame-viewer.ts'
import { createScrcpyStream, type ScrcpyStreamOptions } from './scrcpy-stream.ts'
import type { DeviceStream } from './types.ts'

export const createDeviceStream = (result: ConnectReady, core: CoreClient, options: ScrcpyStreamOptions = {}): DeviceStream | null =>
  result.streamMode === 'scrcpy' ? createScrcpyStream(result, core, options) : createFrameViewerStream(result)
