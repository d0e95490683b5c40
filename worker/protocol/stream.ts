// The phone-stream wire: ONE websocket per browser (owned by the core) multiplexing every phone any tab views.
// Binary messages carry one channel's bytes behind a 5-byte channel header; text messages are JSON channel control.
// Channel payloads are scrcpy's own byte streams (video/audio: codec metadata, then packets with a 12-byte header of
// pts + config/keyframe flags and size; control: scrcpy control messages up, scrcpy device messages down), so a real
// Android running scrcpy-server behind a bridge that adds the channel header could replace the simulated phone.

export const STREAM_PATH = '/api/resources/stream'

/** The kind of a channel; a channel is (phone, kind). */
export const STREAM_KIND = { video: 0, audio: 1, control: 2, thumbnail: 3 } as const
export type StreamKind = (typeof STREAM_KIND)[keyof typeof STREAM_KIND]

/** 1 byte kind + 4 bytes userCardId (big-endian), then the channel's bytes. */
export const CHANNEL_HEADER_BYTES = 5

export const encodeChannelFrame = (kind: StreamKind, cardId: number, payload: Uint8Array): Uint8Array => {
  const out = new Uint8Array(CHANNEL_HEADER_BYTES + payload.byteLength)
  out[0] = kind
  new DataView(out.buffer).setUint32(1, cardId >>> 0, false)
  out.set(payload, CHANNEL_HEADER_BYTES)
  return out
}

export interface ChannelFrame {
  readonly kind: StreamKind
  readonly cardId: number
  readonly payload: Uint8Array
}

export const decodeChannelFrame = (data: Uint8Array): ChannelFrame | null => {
  if (data.byteLength < CHANNEL_HEADER_BYTES) return null
  const kind = data[0]!
  if (kind > STREAM_KIND.thumbnail) return null
  const cardId = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, false)
  return { kind: kind as StreamKind, cardId, payload: data.subarray(CHANNEL_HEADER_BYTES) }
}

// ---- scrcpy media framing (what the video and audio channels carry) ----

/** scrcpy's codec ids in the video/audio metadata (ASCII of the name, big-endian u32). */
export const SCRCPY_CODEC = { h264: 0x68_32_36_34, opus: 0x6f_70_75_73 } as const
/** codec id u32 + width u32 + height u32 (video); audio metadata is the codec id alone. */
export const VIDEO_META_BYTES = 12
export const AUDIO_META_BYTES = 4
/** pts_and_flags u64 + size u32. */
export const PACKET_HEADER_BYTES = 12
const FLAG_CONFIG = 1n << 63n
const FLAG_KEYFRAME = 1n << 62n
const PTS_MASK = FLAG_KEYFRAME - 1n

export const encodeVideoMeta = (width: number, height: number): Uint8Array => {
  const out = new Uint8Array(VIDEO_META_BYTES)
  const view = new DataView(out.buffer)
  view.setUint32(0, SCRCPY_CODEC.h264, false)
  view.setUint32(4, width, false)
  view.setUint32(8, height, false)
  return out
}

export const encodeAudioMeta = (): Uint8Array => {
  const out = new Uint8Array(AUDIO_META_BYTES)
  new DataView(out.buffer).setUint32(0, SCRCPY_CODEC.opus, false)
  return out
}

export interface MediaPacketHeader {
  readonly config: boolean
  readonly keyframe: boolean
  /** microseconds. */
  readonly pts: bigint
  readonly size: number
}

export const encodeMediaPacket = (packet: { config: boolean; keyframe: boolean; pts: bigint; data: Uint8Array }): Uint8Array => {
  const out = new Uint8Array(PACKET_HEADER_BYTES + packet.data.byteLength)
  const view = new DataView(out.buffer)
  let ptsFlags = packet.config ? FLAG_CONFIG : packet.pts & PTS_MASK
  if (packet.keyframe) ptsFlags |= FLAG_KEYFRAME
  view.setBigUint64(0, ptsFlags, false)
  view.setUint32(8, packet.data.byteLength, false)
  out.set(packet.data, PACKET_HEADER_BYTES)
  return out
}

/** The header of a packet that starts `bytes` (one websocket message carries one whole packet). */
export const readMediaPacketHeader = (bytes: Uint8Array): MediaPacketHeader | null => {
  if (bytes.byteLength < PACKET_HEADER_BYTES) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ptsFlags = view.getBigUint64(0, false)
  const size = view.getUint32(8, false)
  if (size !== bytes.byteLength - PACKET_HEADER_BYTES) return null
  return { config: (ptsFlags & FLAG_CONFIG) !== 0n, keyframe: (ptsFlags & FLAG_KEYFRAME) !== 0n, pts: ptsFlags & PTS_MASK, size }
}

// ---- quality presets ----

export const STREAM_PRESETS = ['smooth', 'sd', 'hd'] as const
export type StreamPreset = (typeof STREAM_PRESETS)[number]

/** 流畅 / 标清 / 高清: the short side in pixels (portrait width), frames per second and bitrate of each preset. */
export const PRESET_SETTINGS: Readonly<Record<StreamPreset, { readonly shortSide: number; readonly fps: number; readonly bitrate: number }>> = {
  smooth: { shortSide: 360, fps: 20, bitrate: 600_000 },
  sd: { shortSide: 540, fps: 30, bitrate: 1_200_000 },
  hd: { shortSide: 720, fps: 30, bitrate: 2_500_000 },
}
/** The phone's logical screen (portrait): the coordinate space control messages are normalised against. */
export const PHONE_SCREEN = { width: 720, height: 1280 } as const

// ---- channel control (JSON text messages; their schemas are in stream-schema.ts, kept out of the core's bundle) ----

export type { StreamClientMessage, StreamServerMessage } from './stream-schema.ts'
import type { StreamServerMessage } from './stream-schema.ts'

/** Close reasons of a channel (server → core), explained in Chinese by the viewer. */
/**
 * The wall's thumbnail channel (kind thumbnail): each frame's payload is one whole JPEG still of the phone's screen,
 * its short side `shortSide` px (orientation is the still's own width and height), at most one per `intervalMs` while
 * the socket subscribed the card with `thumb`, and none while the picture is unchanged (the core keeps the last one).
 * JPEG, not WebP: Skia encodes a 240x427 still in about 3.5 ms of CPU against WebP's 10 ms (WebP is ~40 % smaller);
 * with 60 phones per account the server's CPU is the scarcer resource (docs/phone-stream.md has the figures).
 */
export const THUMBNAIL = { shortSide: 240, intervalMs: 1_000, mime: 'image/jpeg', quality: 70 } as const

/**
 * When the server drew a still (ms since the epoch, its clock): a JPEG comment segment (COM, FF FE) right after the
 * start-of-image marker, `drawn=<ms>` in ASCII. A comment is part of the JPEG format that decoders skip, so the still
 * stays one whole JPEG; a tile shows it as its age (the bench's tile age, issue 23) without trusting when it arrived.
 */
const STILL_TIME_PREFIX = 'drawn='

export const withStillTime = (jpeg: Uint8Array, drawnAt: number): Uint8Array => {
  if (jpeg.byteLength < 2 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return jpeg
  const text = `${STILL_TIME_PREFIX}${Math.round(drawnAt)}`
  const out = new Uint8Array(jpeg.byteLength + 4 + text.length)
  out[0] = 0xff
  out[1] = 0xd8
  out[2] = 0xff
  out[3] = 0xfe
  // the segment's length counts its own two length bytes
  out[4] = ((text.length + 2) >> 8) & 0xff
  out[5] = (text.length + 2) & 0xff
  for (let i = 0; i < text.length; i++) out[6 + i] = text.charCodeAt(i)
  out.set(jpeg.subarray(2), 6 + text.length)
  return out
}

/** The draw time a still carries (withStillTime), or null when it carries none. */
export const stillTime = (still: Uint8Array): number | null => {
  if (still.byteLength < 6 || still[0] !== 0xff || still[1] !== 0xd8 || still[2] !== 0xff || still[3] !== 0xfe) return null
  const length = (still[4]! << 8) | still[5]!
  if (length < 2 + STILL_TIME_PREFIX.length || 4 + length > still.byteLength) return null
  let text = ''
  for (let i = 6; i < 4 + length; i++) text += String.fromCharCode(still[i]!)
  if (!text.startsWith(STILL_TIME_PREFIX)) return null
  const digits = text.slice(STILL_TIME_PREFIX.length)
  return /^\d{1,15}$/.test(digits) ? Number(digits) : null
}

export const STREAM_CLOSE_REASONS = ['refused', 'restarting', 'accessRemoved', 'expired', 'sessionEnded', 'flood', 'badInput', 'unavailable', 'busy'] as const
export type StreamCloseReason = (typeof STREAM_CLOSE_REASONS)[number]

const isCardId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 0xffff_ffff

/** The core's decoder of a server text message: exactly what StreamServerMessage accepts, without Effect Schema. */
export const parseStreamServerMessage = (text: string): StreamServerMessage | null => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const m = value as Record<string, unknown>
  if (m.op === 'pong') return typeof m.t === 'number' && Number.isFinite(m.t) ? { op: 'pong', t: m.t } : null
  if (!isCardId(m.cardId)) return null
  if (m.op === 'opened' && (STREAM_PRESETS as ReadonlyArray<unknown>).includes(m.preset)) {
    return { op: 'opened', cardId: m.cardId, preset: m.preset as StreamPreset }
  }
  if (m.op === 'thumbClosed' && (STREAM_CLOSE_REASONS as ReadonlyArray<unknown>).includes(m.reason)) {
    return { op: 'thumbClosed', cardId: m.cardId, reason: m.reason as StreamCloseReason }
  }
  if (m.op === 'closed' && (STREAM_CLOSE_REASONS as ReadonlyArray<unknown>).includes(m.reason)) {
    return { op: 'closed', cardId: m.cardId, reason: m.reason as StreamCloseReason }
  }
  if (m.op === 'mirrored' && Array.isArray(m.targets) && m.targets.every(isCardId) && Array.isArray(m.refused)) {
    const refused: Array<{ cardId: number; reason: StreamCloseReason }> = []
    for (const r of m.refused as ReadonlyArray<unknown>) {
      const x = r as Record<string, unknown> | null
      if (typeof x !== 'object' || x === null || !isCardId(x.cardId) || !(STREAM_CLOSE_REASONS as ReadonlyArray<unknown>).includes(x.reason)) return null
      refused.push({ cardId: x.cardId, reason: x.reason as StreamCloseReason })
    }
    return { op: 'mirrored', cardId: m.cardId, targets: m.targets as ReadonlyArray<number>, refused }
  }
  return null
}

/** group control: the most phones one card's input is mirrored to (an account's maximum). */
export const MIRROR_MAX_TARGETS = 60

/** Limits the server enforces per socket (a tab's bad input never hurts other viewers). */
export const STREAM_LIMITS = {
  /** control messages per second per socket (burst / sustained). */
  controlBurst: 240,
  controlPerSecond: 120,
  /** scrcpy inject-text and set-clipboard text, in UTF-8 bytes. */
  maxTextBytes: 4096,
  /** phones one socket may view at once. */
  maxChannelsPerSocket: 64,
  /** thumbnail channels one socket may hold at once (an account's 60 phones fit). */
  maxThumbnailsPerSocket: 64,
  maxMessageBytes: 64 * 1024,
  /** browser sockets one user may hold on an instance: one more closes the oldest (a browser that went away). */
  maxSocketsPerUser: 10,
  /** a socket that views no phone for this long is closed (the core closes its own after 10 s). */
  idleSocketMs: 60_000,
} as const

/**
 * scrcpy 3.x's reset-video control message (type 17, no body): the phone restarts its encoder, so the next packets
 * are a config and a keyframe. The core sends it itself (keyframe on request); tabs serialise every other control
 * message with @yume-chan/scrcpy.
 */
export const SCRCPY_RESET_VIDEO = 17
