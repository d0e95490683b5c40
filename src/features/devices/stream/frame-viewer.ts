// FrameViewerStream: the service's own viewer page in an iframe (api-notes); the page draws the screen and takes
// input itself, so this adapter only hosts it: sandboxed to scripts on its own origin (no top navigation, pop-ups,
// forms or downloads), and granted autoplay, fullscreen and clipboard-write only, never clipboard-read.
import type { ConnectReady } from '../../../../worker/protocol/devices.ts'
import { buildViewerUrl } from '../viewer-url.ts'
import type { DeviceStream, StreamStatus } from './types.ts'

/** Scripts, plus its own origin when that is not ours (a same-origin frame with both could lift its own sandbox). */
export const viewerSandbox = (src: string, appOrigin: string): string =>
  new URL(src).origin === appOrigin ? 'allow-scripts' : 'allow-scripts allow-same-origin'

export const VIEWER_FRAME_ALLOW = 'autoplay; fullscreen; clipboard-write'

export const createFrameViewerStream = (result: ConnectReady): DeviceStream | null => {
  const src = buildViewerUrl(result)
  if (src === null) return null
  const statusListeners = new Set<(s: StreamStatus) => void>()
  let frame: HTMLIFrameElement | null = null
  const emit = (s: StreamStatus) => statusListeners.forEach((l) => l(s))
  return {
    mode: 'frame',
    capabilities: { keys: false, rotate: false, quality: false, text: false, stats: false, clipboard: false, screenshot: false, audio: false },
    mount(container) {
      if (frame) return
      frame = document.createElement('iframe')
      frame.src = src
      frame.className = 'viewer-frame'
      frame.dataset.testid = 'frame-viewer'
      frame.setAttribute('sandbox', viewerSandbox(src, location.origin))
      frame.setAttribute('allow', VIEWER_FRAME_ALLOW)
      frame.setAttribute('referrerpolicy', 'no-referrer')
      frame.addEventListener('load', () => emit({ kind: 'live' }))
      frame.addEventListener('error', () => emit({ kind: 'closed', reason: 'lost' }))
      container.appendChild(frame)
      emit({ kind: 'opening' })
    },
    key: () => undefined,
    rotate: () => undefined,
    setQuality: () => undefined,
    sendText: () => undefined,
    setClipboard: () => undefined,
    setAudio: () => undefined,
    screenshot: () => Promise.resolve(null),
    onStats: () => () => undefined,
    onClipboard: () => () => undefined,
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    close() {
      frame?.remove()
      frame = null
      statusListeners.clear()
    },
  }
}
