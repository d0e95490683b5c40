// The viewer's live-screen adapter: one interface over the service's viewer page (frame) and the scrcpy stream through
// the core, so the viewer screen does not care which one it shows.
import type { StreamMode } from '../../../../worker/protocol/devices.ts'
import type { StreamCloseReason, StreamPreset } from '../../../../worker/protocol/stream.ts'

/** 流畅 / 标清 / 高清, or 自动: lowered when the decoder falls behind or the socket backs up. */
export type Quality = StreamPreset | 'auto'
export type NavKey = 'back' | 'home' | 'recents'

export interface StreamStats {
  /** round trip between the core and the server, null until a pong came back. */
  readonly latencyMs: number | null
  /** frames decoded in the last second. */
  readonly fps: number
  readonly bytesPerSecond: number | null
  readonly decodeP50: number | null
  readonly decodeP99: number | null
  readonly framesDropped: number
  readonly width: number
  readonly height: number
  /** the preset the server streams now. */
  readonly preset: StreamPreset | null
}

export const emptyStats: StreamStats = {
  latencyMs: null, fps: 0, bytesPerSecond: null, decodeP50: null, decodeP99: null, framesDropped: 0, width: 0, height: 0, preset: null,
}

export type StreamStatus =
  | { readonly kind: 'opening' }
  | { readonly kind: 'live' }
  /** the connection dropped (or the core was replaced): the picture comes back by itself. */
  | { readonly kind: 'reconnecting' }
  /** a decoder failure the stream is recovering from (keyframe, then a lower preset), or a codec this browser lacks. */
  | { readonly kind: 'decoderError'; readonly unsupported: boolean }
  | { readonly kind: 'closed'; readonly reason: StreamCloseReason | 'lost' }

export interface StreamCapabilities {
  readonly keys: boolean
  readonly rotate: boolean
  readonly quality: boolean
  readonly text: boolean
  readonly stats: boolean
  readonly clipboard: boolean
  readonly screenshot: boolean
  /** the phone's sound can be turned on here (setAudio). */
  readonly audio: boolean
}

export interface DeviceStream {
  readonly mode: StreamMode
  readonly capabilities: StreamCapabilities
  /** puts the live screen into the container (once). */
  mount(container: HTMLElement): void
  key(key: NavKey): void
  rotate(): void
  setQuality(quality: Quality): void
  sendText(text: string): void
  /** sets the phone's clipboard (paste: also paste it into the focused field). */
  setClipboard(text: string, paste: boolean): void
  /** the phone's sound on or off (on: call it from a user gesture, browsers start sound only after one); kept for the tab session. */
  setAudio(on: boolean): void
  /** the phone's current screen as a PNG, null when nothing is on screen yet. */
  screenshot(): Promise<Blob | null>
  onStats(listener: (stats: StreamStats) => void): () => void
  onStatus(listener: (status: StreamStatus) => void): () => void
  /** the phone copied text: offered to the customer. */
  onClipboard(listener: (text: string) => void): () => void
  /**
   * Group control (同步操作): this phone's input also goes to these phones (scaled by the server to each one's screen);
   * empty stops it. Kept across a reattach. Absent where the stream cannot (the service's frame viewer).
   */
  setMirror?(targets: ReadonlyArray<number>): void
  /** the phones the input reaches now and those refused (or dropped out) with the reason. */
  onMirror?(listener: (m: MirrorState) => void): () => void
  close(): void
}

export interface MirrorState {
  readonly targets: ReadonlyArray<number>
  readonly refused: ReadonlyArray<{ readonly cardId: number; readonly reason: StreamCloseReason }>
}
