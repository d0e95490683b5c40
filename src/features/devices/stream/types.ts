// The viewer's live-screen adapter: one interface over the service's viewer page (frame) and the reference
// server's simulated device, so the viewer screen does not care which one it shows.
import type { SimFrame, StreamMode } from '../../../../worker/protocol/devices.ts'

export type Quality = SimFrame['quality']
export type NavKey = 'back' | 'home' | 'recents'

export interface StreamStats {
  /** round trip of the last ping, null until one came back. */
  readonly latencyMs: number | null
  /** frames drawn in the last second. */
  readonly fps: number
}

export type StreamStatus =
  | { readonly kind: 'opening' }
  | { readonly kind: 'live' }
  /** restarting: the device went into a reboot/reset; accessRemoved: the user lost access; lost: anything else. */
  | { readonly kind: 'closed'; readonly reason: 'restarting' | 'accessRemoved' | 'refused' | 'lost' }

export interface StreamCapabilities {
  readonly keys: boolean
  readonly rotate: boolean
  readonly quality: boolean
  readonly text: boolean
  readonly stats: boolean
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
  onStats(listener: (stats: StreamStats) => void): () => void
  onStatus(listener: (status: StreamStatus) => void): () => void
  close(): void
}
