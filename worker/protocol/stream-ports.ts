// The messages on the two ports a tab hands the core for each phone it shows: the decoder port (core → the tab's
// decoder worker: video and audio bytes, so they never touch the tab's main thread) and the control port (tab main
// thread ↔ core: input up, status, latency and device messages down).
import type { StreamCloseReason, StreamPreset } from './stream.ts'

/** Core → decoder worker. `restart`: a new scrcpy stream follows (metadata first); drop the decoder's state. */
export type CoreToDecoder =
  | { readonly t: 'restart' }
  | { readonly t: 'video'; readonly bytes: Uint8Array }
  | { readonly t: 'audio'; readonly bytes: Uint8Array }
  /** the tab went hidden or the channel ended: stop presenting (never show a frozen frame as live). */
  | { readonly t: 'pause' }

export type StreamState = 'opening' | 'live' | 'reconnecting' | 'closed'

/** Core → tab. */
export type CoreToTab =
  | { readonly t: 'status'; readonly state: StreamState; readonly reason?: StreamCloseReason }
  | { readonly t: 'latency'; readonly ms: number }
  | { readonly t: 'preset'; readonly preset: StreamPreset }
  /** a scrcpy device message (clipboard...). */
  | { readonly t: 'device'; readonly bytes: Uint8Array }
  /** bytes the core received for this phone per second (the server's stream, shared by every tab). */
  | { readonly t: 'bitrate'; readonly bytesPerSecond: number }
  /** group control: the phones this phone's input reaches now, and those refused (or dropped) with the reason. */
  | { readonly t: 'mirrored'; readonly targets: ReadonlyArray<number>; readonly refused: ReadonlyArray<{ readonly cardId: number; readonly reason: StreamCloseReason }> }

/** Tab → core. */
export type TabToCore =
  /** a scrcpy control message. */
  | { readonly t: 'control'; readonly bytes: Uint8Array }
  | { readonly t: 'preset'; readonly preset: StreamPreset }
  | { readonly t: 'audio'; readonly on: boolean }
  /** the decoder lost its state (an error): the core replays the cached keyframe and asks the phone for a new one. */
  | { readonly t: 'keyframe' }
  /** group control (同步操作): this phone's input goes to these phones too; empty stops it. Sent again, asks anew. */
  | { readonly t: 'mirror'; readonly targets: ReadonlyArray<number> }

export interface OpenStreamInput {
  readonly cardId: number
  readonly cardToken: string
  readonly preset: StreamPreset
  readonly audio: boolean
}

// ---- the home's wall: one port per tab (tab main thread <-> core) for every thumbnail it shows ----

/** Tab → core. */
export type TabToWall =
  /** the cards whose tiles are on screen in this tab now (the whole set; it replaces the previous one). */
  | { readonly t: 'want'; readonly cards: ReadonlyArray<number> }
  /** a card token (from connect) for a card the core asked one for. */
  | { readonly t: 'token'; readonly cardId: number; readonly cardToken: string }

/** Core → tab. */
export type WallToTab =
  /** the card's latest still (THUMBNAIL: a JPEG), from the socket or the core's cache; `at` is when the core got it. */
  | { readonly t: 'still'; readonly cardId: number; readonly bytes: Uint8Array; readonly at: number }
  /** the card's thumbnails ended: show the reason, not the last picture (a new still ends that). */
  | { readonly t: 'ended'; readonly cardId: number; readonly reason: StreamCloseReason }
  /** the core has no (valid) card token for the card: the tab connects and answers `token`. */
  | { readonly t: 'needToken'; readonly cardId: number }
