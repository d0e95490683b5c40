// The phone stream of worker/protocol/stream.ts: ONE websocket per browser at STREAM_PATH multiplexing every phone it
// views. JSON text messages open / close / re-preset channels; binary messages are channel frames: scrcpy video (and
// audio) down, scrcpy control messages up, scrcpy device messages down. A card token from connect opens a card.
//
// Each phone has one screen here: one state (phone.ts), and while it has viewers one renderer and one H.264 encoder
// (screen.ts) on a screen thread (screen-pool.ts), and every viewer gets the same packets. Frames are made only while a phone has viewers: at once
// after an input changed it, at the preset's rate while it animates, else when the clock's second turns. A viewer
// joining (or falling behind) waits for a keyframe: metadata, config and that keyframe reach it first.
//
// Thumbnails (the home's wall): `thumb {cardId, cardToken}` is authorised exactly as `open` (the same card token
// rules) and subscribes the socket to the card's THUMBNAIL channel: a JPEG still of the phone's screen at 240p drawn on
// its screen thread once a second while some socket subscribes it, skipped while the picture is unchanged (same state,
// same clock minute: a still's clock shows hours and minutes); a new subscriber gets the last still at once. Thumbnails need no encoder: a phone only on walls
// costs a Skia draw and a JPEG encode per changed second. Phones on another instance are refused 'unavailable' (no relay).
//
// Sound (audio.ts): while a phone's 音乐 app plays and a socket asked for audio (open's flag, then `audio`), a 20 ms
// clock encodes its melody as Opus for those sockets only: the audio metadata and the OpusHead config first, then
// packets. Paused, nothing is sent.
//
// With several instances a phone's screen is made by the instance holding its lease (leases.ts); a socket that landed
// on another instance is served by relay: an internal websocket to the owner (marked with the cluster's relay secret)
// carrying that card's messages both ways.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { CLOSE_POLICY_VIOLATION } from '../../http/socket-limits.ts'
import { timingSafeEqual } from 'node:crypto'
import * as Schema from 'effect/Schema'
import { WebSocket, WebSocketServer, type RawData } from 'ws'
import {
  decodeChannelFrame, encodeAudioMeta, encodeChannelFrame, encodeMediaPacket, encodeVideoMeta, PRESET_SETTINGS, readMediaPacketHeader, STREAM_KIND,
  STREAM_LIMITS, STREAM_PATH, THUMBNAIL, withStillTime, type StreamCloseReason, type StreamPreset, type StreamServerMessage,
} from '../../../worker/protocol/stream.ts'
import { StreamClientMessage } from '../../../worker/protocol/stream-schema.ts'
import { presetFrameSize } from '../../../worker/protocol/phone-screen.ts'
import { busyState } from '../busy.ts'
import { CARD_TOKEN_CHECK_MS, CARD_TOKEN_PURGE_MS, cardTokenRows, endedCardTokens, endedReason, purgeCardTokens } from '../card-tokens.ts'
import type { DeviceClock } from '../clock.ts'
import type { DevicesDb } from '../tables.ts'
import { sessionDigest } from '../../session/tokens.ts'
import { AUDIO_FRAME_MS, AUDIO_FRAME_SAMPLES, AUDIO_SAMPLE_RATE, createMusicEncoder, melodySamples, type MusicEncoder, type OpusPacket } from './audio.ts'
import { ackClipboardMessage, clipboardMessage, CONTROL_TYPE, parseControl, type ControlMessage } from './control.ts'
import type { EncodedPacket, EncoderSettings } from './encoder.ts'
import { createExpiryTimers } from './expiry-timers.ts'
import { localLeases, LEASE_REFRESH_MS, type PhoneLeases } from './leases.ts'
import {
  addFile as addFileTo, animating, applyControl, clockText, initialPhone, installApp as installAppOn, musicPositionAt, screenSize, settle, type PhoneEffect,
  type PhoneState,
} from './phone.ts'
import { screenPool, type PooledScreen } from './screen-pool.ts'
import { createAddressBook, STREAM_ADMISSION, upgradeAddress } from './stream-admission.ts'

export interface StreamServer {
  /** takes the upgrade when it is for STREAM_PATH; false leaves it to others. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** closes the phone's channels (all viewers', or one user's) with the reason; the sockets stay open. */
  kick(deviceId: number, reason: StreamCloseReason, userId?: number): void
  /** closes, with 'sessionEnded', every channel opened with a card token of these sessions (`sessionDigest`s). */
  endSessions(digests: ReadonlyArray<string>): void
  /** a factory reset: the phone starts again from its initial state. */
  resetPhone(deviceId: number): void
  /** an uploaded APK: the phone's launcher gets an icon named after the file. */
  installApp(deviceId: number, name: string): void
  /** an uploaded file: the phone's 文件 app lists it. */
  addFile(deviceId: number, name: string, size: number): void
  /** group control's text (paste: typed into the focused field, as a clipboard paste) or clipboard (paste false). */
  typeText(deviceId: number, text: string, paste: boolean): void
  /** viewers of the phone on this instance (relayed ones counted where their socket is). */
  viewerCount(deviceId: number): number
  close(): Promise<void>
}
/** This instance's server, with what tests look at. */
export interface LocalStreamServer extends StreamServer {
  /** the phone's state on this instance (null when it never had one here). */
  phoneState(deviceId: number): PhoneState | null
  /** whether the phone has an encoder here now. */
  encoding(deviceId: number): boolean
  /** sockets subscribed to the phone's thumbnails here now. */
  thumbSubscribers(deviceId: number): number
  /** browser sockets open on this instance now. */
  socketCount(): number
  /** cuts every browser socket as a network failure would (operator / e2e): the cores reconnect by themselves. */
  dropSockets(): number
}
/** the old name, kept for the services that hold it. */
export type SimStreamServer = StreamServer

export interface StreamServerOptions {
  readonly leases?: PhoneLeases
  /** the cluster secret relay sockets carry (null: no relaying, every phone is local). */
  readonly relaySecret?: () => Promise<string>
  /** how long a phone keeps its encoder after its last viewer left. */
  readonly releaseGraceMs?: number
  /** test-only: STREAM_LIMITS.idleSocketMs shortened. */
  readonly idleSocketMs?: number
  /** how often the open channels' card tokens are checked again (CARD_TOKEN_CHECK_MS). */
  readonly tokenCheckMs?: number
  /** phones this instance encodes at once (MAX_ENCODING_PHONES); one more is refused 'busy'. */
  readonly maxEncodingPhones?: number
  /** the deployment's balancers (TRUSTED_PROXIES): behind them a socket's address is the client they name. */
  readonly trustedProxies?: ReadonlyArray<string>
  /** test-only: STREAM_ADMISSION.authDeadlineMs shortened. */
  readonly authDeadlineMs?: number
}

export const RELAY_HEADER = 'x-cloud-phone-relay'
/** A viewer this far behind reading loses delta frames until the next keyframe. */
export const STREAM_MAX_BUFFERED_BYTES = 1024 * 1024
/** Past this a socket is cut (it stopped reading altogether). */
const STREAM_CUT_BUFFERED_BYTES = 16 * 1024 * 1024
const KEYFRAME_REQUEST_GAP_MS = 500
/**
 * Phones one instance encodes at once. Each open 高清 phone costs about 22 MiB (its canvas, pixel copy and x264
 * state); past this many, a new phone's stream is refused 'busy' rather than slowing every viewer (docs/hardening.md:
 * the RSS budget).
 */
export const MAX_ENCODING_PHONES = 24
/** a viewer's preset changes at most this often (issue 41 finding 6); one asked sooner waits for the gap. */
export const PRESET_CHANGE_GAP_MS = 1_000
const RELEASE_GRACE_MS = 5_000
const MIN_FPS = 1
/** audio frames encoded at most in one tick (100 ms): later ones are skipped, too late to play. */
const MAX_AUDIO_CATCH_UP = 5

const decodeClientMessage = Schema.decodeUnknownOption(StreamClientMessage)

interface ClientSocket {
  readonly ws: WebSocket
  readonly relayed: boolean
  readonly channels: Map<number, Channel>
  /** the wall's thumbnail subscriptions, by card. */
  readonly thumbs: Map<number, ThumbChannel>
  /** group control: an open card's input is applied to these phones too (by the card, its targets by card). */
  readonly mirrors: Map<number, Map<number, MirrorTarget>>
  tokens: number
  tokensAt: number
  closed: boolean
  /** the user whose card it opened first (sockets per user are capped); null until then. */
  userId: number | null
  /** closes the socket when it has viewed no phone for STREAM_LIMITS.idleSocketMs. */
  idleTimer: ReturnType<typeof setTimeout> | null
  /** the client's address (admission per address: stream-admission.ts). */
  readonly address: string
  /** card tokens refused before the socket opened a user's card. */
  refusals: number
  /** group control: targets authorised this mirror session (by master card, then target card), asked once. */
  readonly grants: Map<number, Map<number, MirrorTarget>>
  /** the `mirror` being authorised now, and the latest one that came meanwhile (run after it). */
  mirroring: boolean
  nextMirror: (StreamClientMessage & { op: 'mirror' }) | null
  /** the card-token checks of a socket not yet proved, chained (checkToken). */
  tokenChecks: Promise<unknown>
  /** closes the socket unless it opens a user's card in time (stream-admission.ts). */
  authTimer: ReturnType<typeof setTimeout> | null
}

type Channel = LocalChannel | RelayChannel

/** A phone a master card's input is mirrored to: authorised for the socket's user when `mirror` named it. */
interface MirrorTarget {
  readonly deviceId: number
  readonly userId: number
}

/** What an authorised card token opens: its device and user, the token and its session's digest. */
interface CardGrant {
  readonly deviceId: number
  readonly userId: number
  readonly token: string
  readonly session: string
  /** the device's expiry when the token was checked (ms, device clock): expiry-timers.ts ends it then. */
  readonly expiresAt: number
}

/** What every channel holds: its socket, its card, and the grant that opened it. */
interface ChannelBase extends CardGrant {
  readonly socket: ClientSocket
  readonly cardId: number
}

interface LocalChannel extends ChannelBase {
  readonly kind: 'local'
  readonly phone: Phone
  needMeta: boolean
  needKey: boolean
  /** wants the phone's sound; audioPrimed: has had the audio metadata and config. */
  audio: boolean
  audioPrimed: boolean
  /** the viewer's last urgent keyframe (reset-video) and preset change, and a change waiting for its gap. */
  lastReset: number
  lastPresetAt: number
  presetTimer: NodeJS.Timeout | null
}

interface ThumbChannel extends ChannelBase {
  readonly kind: 'thumb'
  readonly phone: Phone
}

interface RelayChannel extends ChannelBase {
  readonly kind: 'relay'
  readonly upstream: WebSocket
  readonly pending: Array<string | Uint8Array>
  needKey: boolean
  lastKeyRequest: number
}

interface Phone {
  readonly deviceId: number
  state: PhoneState
  preset: StreamPreset
  readonly viewers: Set<LocalChannel>
  /** its screen thread's renderer and encoder (screen-pool.ts), while it has viewers. */
  screen: PooledScreen | null
  /** what the current stream is encoded at (null: the next frame starts a new stream). */
  settings: EncoderSettings | null
  /** the config (SPS/PPS) of the current encoder's stream. */
  config: Uint8Array | null
  encoding: boolean
  pending: boolean
  /** a finger moved since the last frame: the next frame comes at the preset's rate, not at once (produceFor). */
  moved: boolean
  forceKey: boolean
  lastKeyRequest: number
  lastFrameAt: number
  lastClock: string
  timer: NodeJS.Timeout | null
  releaseTimer: NodeJS.Timeout | null
  readonly t0: number
  /** sound: the Opus encoder (kept until the phone is released), the 20 ms clock while it plays and its position. */
  music: MusicEncoder | null
  audioTimer: NodeJS.Timeout | null
  audioStartedAt: number
  audioFrames: number
  audioSample: number
  /** the wall's subscribers, the 1 s thumbnail clock while there are some, and the last still with what it showed. */
  readonly thumbViewers: Set<ThumbChannel>
  thumbTimer: NodeJS.Timeout | null
  thumbBusy: boolean
  lastThumb: Uint8Array | null
  lastThumbState: PhoneState | null
  lastThumbClock: string
}

const toBytes = (data: RawData): Uint8Array =>
  Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data

export const createStreamServer = (db: DevicesDb, clock: DeviceClock, options: StreamServerOptions = {}): LocalStreamServer => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: STREAM_LIMITS.maxMessageBytes, perMessageDeflate: false })
  const maxEncoding = options.maxEncodingPhones ?? MAX_ENCODING_PHONES
  const trustedProxies = new Set(options.trustedProxies ?? [])
  const addresses = createAddressBook()
  const leases = options.leases ?? localLeases
  const graceMs = options.releaseGraceMs ?? RELEASE_GRACE_MS
  const phones = new Map<number, Phone>()
  const sockets = new Set<ClientSocket>()
  let closing = false

  const leaseTimer = setInterval(() => {
    const held = [...phones.values()].filter((p) => p.viewers.size > 0 || p.thumbViewers.size > 0 || p.releaseTimer).map((p) => p.deviceId)
    leases.refresh(held).catch(() => undefined)
  }, LEASE_REFRESH_MS)
  leaseTimer.unref()

  // ---- sending ----

  const sendJson = (socket: ClientSocket, message: StreamServerMessage): void => {
    if (socket.ws.readyState !== WebSocket.OPEN) return
    // every message counts against a reader that stopped reading, not only video (issue 41 finding 2)
    if (socket.ws.bufferedAmount > STREAM_CUT_BUFFERED_BYTES) return void socket.ws.terminate()
    socket.ws.send(JSON.stringify(message))
  }
  const sendFrame = (socket: ClientSocket, kind: number, cardId: number, payload: Uint8Array): void => {
    if (socket.ws.readyState !== WebSocket.OPEN) return
    if (socket.ws.bufferedAmount > STREAM_CUT_BUFFERED_BYTES) return void socket.ws.terminate()
    socket.ws.send(encodeChannelFrame(kind as 0, cardId, payload))
  }

  // ---- phones ----

  const phoneOf = (deviceId: number): Phone => {
    let phone = phones.get(deviceId)
    if (!phone) {
      phone = {
        deviceId, state: initialPhone, preset: 'sd', viewers: new Set(), screen: null, settings: null, config: null, encoding: false,
        pending: false, moved: false, forceKey: false, lastKeyRequest: 0, lastFrameAt: 0, lastClock: '', timer: null, releaseTimer: null, t0: performance.now(),
        music: null, audioTimer: null, audioStartedAt: 0, audioFrames: 0, audioSample: 0,
        thumbViewers: new Set(), thumbTimer: null, thumbBusy: false, lastThumb: null, lastThumbState: null, lastThumbClock: '',
      }
      phones.set(deviceId, phone)
    }
    return phone
  }

  /** nothing views the phone (video or wall): its screen goes after the grace. */
  const idle = (phone: Phone): boolean => phone.viewers.size === 0 && phone.thumbViewers.size === 0

  const releaseLater = (phone: Phone): void => {
    if (!idle(phone)) return
    if (phone.releaseTimer) clearTimeout(phone.releaseTimer)
    phone.releaseTimer = setTimeout(() => {
      phone.releaseTimer = null
      if (idle(phone)) release(phone)
    }, graceMs)
    phone.releaseTimer.unref()
  }

  // ---- thumbnails ----

  const stillSize = (state: PhoneState): { width: number; height: number } => {
    const long = Math.round((THUMBNAIL.shortSide * 16) / 9 / 2) * 2
    return state.orientation === 'portrait' ? { width: THUMBNAIL.shortSide, height: long } : { width: long, height: THUMBNAIL.shortSide }
  }

  /** draws and sends a still when the picture changed since the last one (state or the clock's minute). */
  const thumbTick = (phone: Phone): void => {
    if (phone.thumbViewers.size === 0 || phone.thumbBusy || closing) return
    const now = clock.now()
    phone.state = settle(phone.state, now)
    const state = phone.state
    const clockNow = clockText(now).slice(0, 5)
    if (phone.lastThumb !== null && state === phone.lastThumbState && clockNow === phone.lastThumbClock && !animating(state, now)) return
    phone.thumbBusy = true
    phone.screen ??= screenPool().open()
    const screen = phone.screen
    screen.still({ state, now, ...stillSize(state), quality: THUMBNAIL.quality }).then(
      (still) => {
        phone.thumbBusy = false
        if (screen !== phone.screen) return
        // the still says when it was drawn (the state's time): a tile's age is measured from it (THUMBNAIL's doc)
        const stamped = withStillTime(still, now)
        phone.lastThumb = stamped
        phone.lastThumbState = state
        phone.lastThumbClock = clockNow
        for (const t of phone.thumbViewers) sendThumb(t, stamped)
      },
      () => {
        phone.thumbBusy = false
      },
    )
  }

  const sendThumb = (t: ThumbChannel, still: Uint8Array): void => {
    // a slow reader skips stills (the next one replaces it anyway)
    if (t.socket.ws.bufferedAmount > STREAM_MAX_BUFFERED_BYTES) return
    sendFrame(t.socket, STREAM_KIND.thumbnail, t.cardId, still)
  }

  const syncThumbClock = (phone: Phone): void => {
    if (phone.thumbViewers.size > 0 && !closing) {
      if (phone.thumbTimer) return
      phone.thumbTimer = setInterval(() => thumbTick(phone), THUMBNAIL.intervalMs)
      phone.thumbTimer.unref()
      return
    }
    if (phone.thumbTimer) clearInterval(phone.thumbTimer)
    phone.thumbTimer = null
  }

  const openThumb = (socket: ClientSocket, cardId: number, grant: CardGrant): void => {
    const phone = phoneOf(grant.deviceId)
    if (phone.releaseTimer) clearTimeout(phone.releaseTimer)
    phone.releaseTimer = null
    const channel: ThumbChannel = { kind: 'thumb', socket, cardId, ...grant, phone }
    socket.thumbs.set(cardId, channel)
    expiry.watch(grant.deviceId, grant.expiresAt)
    watchIdle(socket)
    phone.thumbViewers.add(channel)
    syncThumbClock(phone)
    // the last still when it still shows the phone as it is; else a new one now
    if (phone.lastThumb !== null && phone.lastThumbState === phone.state) sendThumb(channel, phone.lastThumb)
    else thumbTick(phone)
  }

  const detachThumb = (channel: ThumbChannel): void => {
    if (channel.socket.thumbs.get(channel.cardId) === channel) channel.socket.thumbs.delete(channel.cardId)
    watchIdle(channel.socket)
    const phone = channel.phone
    if (!phone.thumbViewers.delete(channel)) return
    syncThumbClock(phone)
    releaseLater(phone)
  }

  const closeThumb = (channel: ThumbChannel, reason: StreamCloseReason): void => {
    detachThumb(channel)
    sendJson(channel.socket, { op: 'thumbClosed', cardId: channel.cardId, reason })
  }

  const thumb = async (socket: ClientSocket, message: StreamClientMessage & { op: 'thumb' }): Promise<void> => {
    const previous = socket.thumbs.get(message.cardId)
    if (previous) detachThumb(previous)
    const refuse = (reason: StreamCloseReason) => sendJson(socket, { op: 'thumbClosed', cardId: message.cardId, reason })
    if (socket.thumbs.size >= STREAM_LIMITS.maxThumbnailsPerSocket) return refuse('refused')
    const result = await checkToken(socket, message.cardId, message.cardToken)
    if (socket.closed) return
    if (typeof result === 'string') {
      refuse(result)
      if (result === 'refused') refusedToken(socket)
      return
    }
    if (socket.thumbs.has(message.cardId)) return
    if (!socket.relayed) holdFor(result.userId, socket)
    const placement = socket.relayed ? { local: true } : await leases.claim(result.deviceId).catch(() => null)
    if (socket.closed || socket.thumbs.has(message.cardId)) return
    if (!placement?.local) return refuse('unavailable')
    openThumb(socket, message.cardId, result)
  }

  const release = (phone: Phone): void => {
    if (phone.timer) clearTimeout(phone.timer)
    phone.timer = null
    phone.screen?.close()
    phone.screen = null
    phone.settings = null
    phone.config = null
    if (phone.audioTimer) clearInterval(phone.audioTimer)
    phone.audioTimer = null
    phone.music?.close()
    phone.music = null
    if (phone.thumbTimer) clearInterval(phone.thumbTimer)
    phone.thumbTimer = null
    leases.release(phone.deviceId).catch(() => undefined)
  }

  const schedule = (phone: Phone): void => {
    if (phone.timer) clearTimeout(phone.timer)
    phone.timer = null
    if (phone.viewers.size === 0 || closing) return
    const now = clock.now()
    const fps = PRESET_SETTINGS[phone.preset].fps
    const wait = phone.moved || animating(phone.state, now)
      ? Math.max(0, phone.lastFrameAt + 1000 / fps - now)
      : Math.max(5, Math.min(1000 / MIN_FPS, 1000 - (now % 1000) + 5))
    phone.timer = setTimeout(() => {
      phone.timer = null
      produce(phone)
    }, wait)
    phone.timer.unref()
  }

  const requestKeyframe = (phone: Phone, now: number, urgent: boolean): void => {
    if (!urgent && now - phone.lastKeyRequest < KEYFRAME_REQUEST_GAP_MS) return
    phone.lastKeyRequest = now
    phone.forceKey = true
    produce(phone)
  }

  /**
   * The frame an input asks for: a finger's move waits for the preset's next frame slot, so the moves between two
   * frames make one frame (a client sending 90 moves/s costs the phone's frame rate, no more: issue 41 finding 1);
   * a press, a release, a key or text draws at once.
   */
  const produceFor = (phone: Phone, message: ControlMessage): void => {
    if (message.type !== 'touch' || message.action !== 2) return produce(phone)
    phone.moved = true
    if (!phone.encoding) schedule(phone) // else schedule() runs after the frame in flight
  }

  /** renders and encodes a frame now (or right after the one in flight), then delivers its packets. */
  const produce = (phone: Phone): void => {
    if (phone.viewers.size === 0 || closing) return
    if (phone.encoding) {
      phone.pending = true
      return
    }
    phone.encoding = true
    void (async () => {
      try {
        do {
          phone.pending = false
          phone.moved = false
          const now = clock.now()
          phone.state = settle(phone.state, now)
          const size = presetFrameSize(phone.preset, phone.state.orientation)
          const { fps, bitrate } = PRESET_SETTINGS[phone.preset]
          const e = phone.settings
          if (!e || e.width !== size.width || e.height !== size.height || e.fps !== fps || e.bitrate !== bitrate) {
            // a new stream (the screen thread starts a new encoder for new settings): each viewer restarts from its keyframe
            phone.settings = { ...size, fps, bitrate }
            phone.config = null
            phone.forceKey = true
            for (const v of phone.viewers) {
              v.needMeta = true
              v.needKey = true
            }
          }
          phone.screen ??= screenPool().open()
          const force = phone.forceKey
          phone.forceKey = false
          const screen = phone.screen
          const settings = phone.settings!
          const ptsUs = BigInt(Math.round((performance.now() - phone.t0) * 1000))
          const packets = await screen.frame({ state: phone.state, now, settings, ptsUs, forceKeyframe: force })
          phone.lastFrameAt = now
          phone.lastClock = clockText(now)
          if (screen === phone.screen && phone.settings === settings) deliver(phone, packets)
        } while (phone.pending && phone.viewers.size > 0 && !closing)
      } catch {
        // the encoder or its thread failed: the next frame starts a new stream
        phone.settings = null
      } finally {
        phone.encoding = false
        schedule(phone)
      }
    })()
  }

  const deliver = (phone: Phone, packets: ReadonlyArray<EncodedPacket>): void => {
    const now = clock.now()
    for (const packet of packets) {
      if (packet.config) {
        phone.config = packet.data
        const bytes = encodeMediaPacket(packet)
        for (const v of phone.viewers) if (!v.needKey) sendFrame(v.socket, STREAM_KIND.video, v.cardId, bytes)
        continue
      }
      const bytes = encodeMediaPacket(packet)
      for (const v of phone.viewers) {
        const behind = v.socket.ws.bufferedAmount > STREAM_MAX_BUFFERED_BYTES
        if (v.needKey) {
          if (!packet.keyframe) continue
          if (behind) {
            requestKeyframe(phone, now, false)
            continue
          }
          const { width, height } = phone.settings!
          if (v.needMeta) sendFrame(v.socket, STREAM_KIND.video, v.cardId, encodeVideoMeta(width, height))
          if (phone.config) sendFrame(v.socket, STREAM_KIND.video, v.cardId, encodeMediaPacket({ config: true, keyframe: false, pts: 0n, data: phone.config }))
          v.needMeta = false
          v.needKey = false
          sendFrame(v.socket, STREAM_KIND.video, v.cardId, bytes)
          continue
        }
        if (behind && !packet.keyframe) {
          // slow reader: its deltas are dropped until the next keyframe, which it asks for (never slowing the others)
          v.needKey = true
          requestKeyframe(phone, now, false)
          continue
        }
        sendFrame(v.socket, STREAM_KIND.video, v.cardId, bytes)
      }
    }
  }

  const effect = (phone: Phone, from: LocalChannel, e: PhoneEffect): void => {
    if (e.kind === 'keyframe') {
      // a viewer's decoder lost its way: it waits for the keyframe this asks for. At once only once per gap per
      // viewer: a co-viewer's stream of reset-video would make every frame of the owner's stream a keyframe (finding 6)
      from.needKey = true
      const t = performance.now()
      const urgent = t - from.lastReset >= KEYFRAME_REQUEST_GAP_MS
      if (urgent) from.lastReset = t
      requestKeyframe(phone, clock.now(), urgent)
      return
    }
    if (e.kind === 'ackClipboard') return sendFrame(from.socket, STREAM_KIND.control, from.cardId, ackClipboardMessage(e.sequence))
    const message = clipboardMessage(e.text)
    if (e.to === 'sender') return sendFrame(from.socket, STREAM_KIND.control, from.cardId, message)
    for (const v of phone.viewers) sendFrame(v.socket, STREAM_KIND.control, v.cardId, message)
  }

  // ---- sound (the 音乐 app) ----

  const wantsAudio = (phone: Phone): boolean => !closing && phone.state.music.playing && [...phone.viewers].some((v) => v.audio)

  /** runs the phone's 20 ms audio clock while its music plays and a viewer wants sound; paused, nothing is sent. */
  const syncAudio = (phone: Phone): void => {
    if (!wantsAudio(phone)) {
      if (phone.audioTimer) clearInterval(phone.audioTimer)
      phone.audioTimer = null
      return
    }
    if (phone.audioTimer) return
    phone.audioStartedAt = performance.now()
    phone.audioFrames = 0
    phone.audioSample = Math.round((musicPositionAt(phone.state, clock.now()) * AUDIO_SAMPLE_RATE) / 1000)
    phone.audioTimer = setInterval(() => audioTick(phone), AUDIO_FRAME_MS)
    phone.audioTimer.unref()
    audioTick(phone)
  }

  /** encodes the frames due by now (a late timer catches up; a stalled process skips what is too late to play). */
  const audioTick = (phone: Phone): void => {
    if (!wantsAudio(phone)) return syncAudio(phone)
    const due = Math.floor((performance.now() - phone.audioStartedAt) / AUDIO_FRAME_MS) + 1
    if (due - phone.audioFrames > MAX_AUDIO_CATCH_UP) {
      const skip = due - phone.audioFrames - MAX_AUDIO_CATCH_UP
      phone.audioFrames += skip
      phone.audioSample += skip * AUDIO_FRAME_SAMPLES
    }
    try {
      phone.music ??= createMusicEncoder()
      while (phone.audioFrames < due) {
        const pts = BigInt(Math.round((phone.audioStartedAt + phone.audioFrames * AUDIO_FRAME_MS - phone.t0) * 1000))
        const packets = phone.music.encode(melodySamples(phone.audioSample, AUDIO_FRAME_SAMPLES), pts)
        phone.audioFrames += 1
        phone.audioSample += AUDIO_FRAME_SAMPLES
        for (const packet of packets) deliverAudio(phone, packet)
      }
    } catch {
      // an encoder failure: a new one (and new metadata and config for every listener) at the next tick
      phone.music?.close()
      phone.music = null
      for (const v of phone.viewers) v.audioPrimed = false
    }
  }

  const deliverAudio = (phone: Phone, packet: OpusPacket): void => {
    const bytes = encodeMediaPacket({ config: false, keyframe: false, pts: packet.pts, data: packet.data })
    for (const v of phone.viewers) {
      // a slow reader loses sound (never the others' or its own picture)
      if (!v.audio || v.socket.ws.bufferedAmount > STREAM_MAX_BUFFERED_BYTES) continue
      if (!v.audioPrimed) {
        v.audioPrimed = true
        sendFrame(v.socket, STREAM_KIND.audio, v.cardId, encodeAudioMeta())
        sendFrame(v.socket, STREAM_KIND.audio, v.cardId, encodeMediaPacket({ config: true, keyframe: false, pts: 0n, data: phone.music!.opusHead }))
      }
      sendFrame(v.socket, STREAM_KIND.audio, v.cardId, bytes)
    }
  }

  const applyInput = (channel: LocalChannel, bytes: Uint8Array): void => {
    const message = parseControl(bytes)
    if (!message) return
    const phone = channel.phone
    const before = phone.state
    const { state, effects } = applyControl(before, message, clock.now())
    phone.state = state
    syncAudio(phone)
    for (const e of effects) effect(phone, channel, e)
    // a frame (the marker changes with every counted input, and most change the screen too)
    if (state !== before) produceFor(phone, message)
    const targets = channel.socket.mirrors.get(channel.cardId)
    if (targets && targets.size > 0) mirrorInput(message, targets)
  }

  // ---- group control: one card's input on many phones ----

  /** the master's message for a phone of its own size and orientation: touches and scrolls at the same fractions. */
  const scaledFor = (message: ControlMessage, target: PhoneState): ControlMessage | null => {
    if (message.type !== 'touch' && message.type !== 'scroll') return message
    if (message.videoWidth <= 0 || message.videoHeight <= 0) return null
    const { width, height } = screenSize(target.orientation)
    const x = Math.min(width - 1, Math.max(0, Math.round((message.x / message.videoWidth) * width)))
    const y = Math.min(height - 1, Math.max(0, Math.round((message.y / message.videoHeight) * height)))
    return { ...message, x, y, videoWidth: width, videoHeight: height }
  }

  /** what group control repeats on the other phones: input, not the viewer's own business (rotation, its clipboard, its video). */
  const MIRRORED: ReadonlySet<ControlMessage['type']> = new Set(['touch', 'key', 'text', 'scroll', 'backOrScreenOn', 'setClipboard'])

  const mirrorInput = (message: ControlMessage, targets: ReadonlyMap<number, MirrorTarget>): void => {
    if (!MIRRORED.has(message.type)) return
    const now = clock.now()
    for (const target of targets.values()) {
      const phone = phoneOf(target.deviceId)
      const scaled = scaledFor(message, phone.state)
      if (!scaled) continue
      const before = phone.state
      const { state, effects } = applyControl(before, message.type === 'setClipboard' ? { ...scaled, sequence: 0n } as ControlMessage : scaled, now)
      phone.state = state
      syncAudio(phone)
      for (const e of effects) {
        if (e.kind !== 'clipboard' || e.to !== 'all') continue
        const bytes = clipboardMessage(e.text)
        for (const v of phone.viewers) sendFrame(v.socket, STREAM_KIND.control, v.cardId, bytes)
      }
      if (state === before) continue
      produceFor(phone, message)
      // walls see the change at once after a release, a key or text (not on every move of a finger)
      if (!(message.type === 'touch' && message.action === 2)) thumbTick(phone)
    }
  }

  const sendMirrored = (socket: ClientSocket, cardId: number, refused: ReadonlyArray<{ cardId: number; reason: StreamCloseReason }>): void =>
    sendJson(socket, { op: 'mirrored', cardId, targets: [...(socket.mirrors.get(cardId)?.keys() ?? [])], refused })

  /** a target the socket's user may use now: owner or grantee (access.ts), not expired, not restarting, screen made here. */
  const authoriseTarget = async (userId: number, cardId: number): Promise<MirrorTarget | StreamCloseReason> => {
    const device = await db.selectFrom('devices').select(['id', 'owner_id', 'expires_at']).where('user_card_id', '=', cardId).executeTakeFirst()
    if (!device) return 'refused'
    if (device.owner_id !== userId) {
      const grant = await db.selectFrom('device_auths').select('id').where('device_id', '=', device.id).where('grantee_id', '=', userId).executeTakeFirst()
      if (!grant) return 'refused'
    }
    if (new Date(device.expires_at).getTime() <= clock.now()) return 'expired'
    if (await busyState(db, device.id, clock)) return 'restarting'
    const placement = await leases.claim(device.id).catch(() => null)
    if (!placement?.local) return 'unavailable'
    expiry.watch(device.id, new Date(device.expires_at).getTime())
    return { deviceId: device.id, userId }
  }

  /** one `mirror` of a socket at a time (its queries never pile up); of those sent meanwhile, the latest runs next. */
  const mirror = async (socket: ClientSocket, message: StreamClientMessage & { op: 'mirror' }): Promise<void> => {
    if (socket.mirroring) {
      socket.nextMirror = message
      return
    }
    socket.mirroring = true
    try {
      await mirrorNow(socket, message)
    } finally {
      socket.mirroring = false
    }
    const next = socket.nextMirror
    socket.nextMirror = null
    if (next && !socket.closed) await mirror(socket, next)
  }

  const mirrorNow = async (socket: ClientSocket, message: StreamClientMessage & { op: 'mirror' }): Promise<void> => {
    const channel = socket.channels.get(message.cardId)
    const wanted = [...new Set(message.targets)].filter((t) => t !== message.cardId)
    if (!channel || channel.kind !== 'local') {
      return sendJson(socket, { op: 'mirrored', cardId: message.cardId, targets: [], refused: wanted.map((cardId) => ({ cardId, reason: 'unavailable' as const })) })
    }
    const refused: Array<{ cardId: number; reason: StreamCloseReason }> = []
    const granted = new Map<number, MirrorTarget>()
    // a target authorised this session is not asked again: losing it (removeAuth, transfer, reset, expiry) drops it
    // from the session (dropTarget)
    const known = socket.grants.get(message.cardId) ?? new Map<number, MirrorTarget>()
    for (const cardId of wanted) {
      const result = known.get(cardId) ?? await authoriseTarget(channel.userId, cardId).catch((): StreamCloseReason => 'unavailable')
      if (typeof result === 'string') refused.push({ cardId, reason: result })
      else granted.set(cardId, result)
    }
    // the channel closed meanwhile: nothing to mirror from
    if (socket.closed || socket.channels.get(message.cardId) !== channel) return
    for (const [cardId, target] of granted) known.set(cardId, target)
    socket.grants.set(message.cardId, known)
    if (granted.size === 0) socket.mirrors.delete(message.cardId)
    else socket.mirrors.set(message.cardId, granted)
    sendMirrored(socket, message.cardId, refused)
  }

  /** a phone leaves every group it is mirrored to (reboot, reset, removeAuth, transfer...): the masters' sockets are told. */
  const dropTarget = (deviceId: number, reason: StreamCloseReason, userId?: number): void => {
    for (const socket of sockets) {
      for (const known of socket.grants.values()) {
        for (const [cardId, t] of known) if (t.deviceId === deviceId && (userId === undefined || t.userId === userId)) known.delete(cardId)
      }
      for (const [master, targets] of socket.mirrors) {
        const gone = [...targets].filter(([, t]) => t.deviceId === deviceId && (userId === undefined || t.userId === userId)).map(([cardId]) => cardId)
        if (gone.length === 0) continue
        for (const cardId of gone) targets.delete(cardId)
        if (targets.size === 0) socket.mirrors.delete(master)
        sendMirrored(socket, master, gone.map((cardId) => ({ cardId, reason })))
      }
    }
  }

  // ---- channels ----

  const detach = (channel: Channel): void => {
    if (channel.socket.channels.get(channel.cardId) === channel) {
      channel.socket.channels.delete(channel.cardId)
      channel.socket.mirrors.delete(channel.cardId)
      channel.socket.grants.delete(channel.cardId)
    }
    watchIdle(channel.socket)
    if (channel.kind === 'relay') {
      channel.upstream.removeAllListeners('close')
      channel.upstream.on('error', () => undefined)
      if (channel.upstream.readyState === WebSocket.CONNECTING) channel.upstream.terminate()
      else channel.upstream.close()
      return
    }
    if (channel.presetTimer) clearTimeout(channel.presetTimer)
    channel.presetTimer = null
    const phone = channel.phone
    if (!phone.viewers.delete(channel)) return
    syncAudio(phone)
    if (phone.viewers.size === 0) {
      if (phone.timer) clearTimeout(phone.timer)
      phone.timer = null
      releaseLater(phone)
    }
  }

  const closeChannel = (channel: Channel, reason: StreamCloseReason): void => {
    detach(channel)
    sendJson(channel.socket, { op: 'closed', cardId: channel.cardId, reason })
  }

  /** phones with viewers here: each has an encoder (MAX_ENCODING_PHONES). */
  const encodingPhones = (): number => {
    let n = 0
    for (const p of phones.values()) if (p.viewers.size > 0) n += 1
    return n
  }

  const openLocal = (socket: ClientSocket, cardId: number, grant: CardGrant, preset: StreamPreset, audio = false): void => {
    // a phone already on screen here costs nothing more; a new one past the cap is refused, never slowing the others
    if ((phones.get(grant.deviceId)?.viewers.size ?? 0) === 0 && encodingPhones() >= maxEncoding) {
      return sendJson(socket, { op: 'closed', cardId, reason: 'busy' })
    }
    const phone = phoneOf(grant.deviceId)
    if (phone.releaseTimer) clearTimeout(phone.releaseTimer)
    phone.releaseTimer = null
    // the phone has one screen: the first viewer's preset holds until a viewer changes it
    if (phone.viewers.size === 0) phone.preset = preset
    const channel: LocalChannel = {
      kind: 'local', socket, cardId, ...grant, phone, needMeta: true, needKey: true, audio, audioPrimed: false,
      lastReset: -Infinity, lastPresetAt: -Infinity, presetTimer: null,
    }
    socket.channels.set(cardId, channel)
    watchIdle(socket)
    phone.viewers.add(channel)
    expiry.watch(grant.deviceId, grant.expiresAt)
    syncAudio(phone)
    sendJson(socket, { op: 'opened', cardId, preset: phone.preset })
    requestKeyframe(phone, clock.now(), true)
  }

  const openRelay = (socket: ClientSocket, url: string, open: StreamClientMessage & { op: 'open' }, grant: CardGrant, secret: string): void => {
    const upstream = new WebSocket(`${url.replace(/^http/, 'ws')}${STREAM_PATH}`, { headers: { [RELAY_HEADER]: secret }, perMessageDeflate: false })
    const channel: RelayChannel = {
      kind: 'relay', socket, cardId: open.cardId, ...grant, upstream, pending: [JSON.stringify(open)], needKey: false, lastKeyRequest: 0,
    }
    socket.channels.set(open.cardId, channel)
    watchIdle(socket)
    upstream.binaryType = 'nodebuffer'
    upstream.on('open', () => {
      for (const m of channel.pending.splice(0)) upstream.send(m)
    })
    upstream.on('message', (data, isBinary) => {
      if (socket.channels.get(open.cardId) !== channel) return
      if (!isBinary) {
        let parsed: StreamServerMessage | null = null
        try {
          parsed = JSON.parse(data.toString()) as StreamServerMessage
        } catch {
          return
        }
        if (parsed.op === 'pong' || !('cardId' in parsed) || parsed.cardId !== open.cardId) return
        if (parsed.op === 'closed') detach(channel)
        sendJson(socket, parsed)
        return
      }
      const bytes = toBytes(data)
      const frame = decodeChannelFrame(bytes)
      if (!frame || frame.cardId !== open.cardId) return
      if (frame.kind === STREAM_KIND.video) {
        const header = readMediaPacketHeader(frame.payload)
        const delta = header !== null && !header.config && !header.keyframe
        if (channel.needKey && delta) return
        if (header?.keyframe) channel.needKey = false
        if (delta && socket.ws.bufferedAmount > STREAM_MAX_BUFFERED_BYTES) {
          channel.needKey = true
          const now = clock.now()
          if (now - channel.lastKeyRequest >= KEYFRAME_REQUEST_GAP_MS) {
            channel.lastKeyRequest = now
            upstream.send(encodeChannelFrame(STREAM_KIND.control, open.cardId, Uint8Array.of(CONTROL_TYPE.resetVideo)))
          }
          return
        }
      }
      if (socket.ws.readyState !== WebSocket.OPEN) return
      if (socket.ws.bufferedAmount > STREAM_CUT_BUFFERED_BYTES) return void socket.ws.terminate()
      socket.ws.send(bytes)
    })
    upstream.on('error', () => undefined)
    upstream.on('close', () => {
      if (socket.channels.get(open.cardId) !== channel) return
      socket.channels.delete(open.cardId)
      sendJson(socket, { op: 'closed', cardId: open.cardId, reason: 'unavailable' })
    })
  }

  const forward = (channel: RelayChannel, message: string | Uint8Array): void => {
    if (channel.upstream.readyState === WebSocket.OPEN) channel.upstream.send(message)
    else if (channel.upstream.readyState === WebSocket.CONNECTING && channel.pending.length < 256) channel.pending.push(message)
  }

  /**
   * The device and user the token was issued for, while its session lasts, that user still has access and the device
   * is not expired (card-tokens.ts) nor restarting. A token that ended (logout, password reset, transfer, removeAuth,
   * factory reset, purged) has no row: refused.
   */
  const authorise = async (userCardId: number, cardToken: string, issuedTo?: (userId: number) => void): Promise<CardGrant | StreamCloseReason> => {
    const [row] = await cardTokenRows(db, [cardToken])
    if (!row || row.user_card_id !== userCardId) return 'refused'
    issuedTo?.(row.user_id)
    const ended = endedReason(row, clock.now())
    if (ended) return ended
    if (await busyState(db, row.device_id, clock)) return 'restarting'
    return {
      deviceId: row.device_id, userId: row.user_id, token: cardToken, session: sessionDigest(row.session_token),
      expiresAt: new Date(row.device_expires_at).getTime(),
    }
  }

  /**
   * A socket not yet proved has its card tokens checked one at a time: a burst of made-up tokens costs the lookups
   * until its refusals close it (refusedToken), not one lookup per message sent. A proved socket's run at once.
   */
  const checkToken = (socket: ClientSocket, cardId: number, token: string): Promise<CardGrant | StreamCloseReason> => {
    // a token issued to a user for this card proves the socket, even when its phone expired or restarts now
    const check = () => authorise(cardId, token, (userId) => !socket.relayed && !socket.closed && holdFor(userId, socket))
      .catch((): StreamCloseReason => 'unavailable')
    if (socket.relayed || socket.userId !== null) return check()
    const result = socket.tokenChecks.then(() => (socket.ws.readyState !== WebSocket.OPEN ? 'unavailable' as const : check()))
    socket.tokenChecks = result
    return result
  }

  /** group control's targets hold no card token: one that expired by the clock leaves every group here, its masters told. */
  const checkMirrorExpiry = async (): Promise<void> => {
    const ids = new Set<number>()
    for (const socket of sockets) for (const targets of socket.grants.values()) for (const t of targets.values()) ids.add(t.deviceId)
    if (ids.size === 0) return
    const expired = await db.selectFrom('devices').select('id').where('id', 'in', [...ids]).where('expires_at', '<=', new Date(clock.now())).execute()
    for (const row of expired) dropTarget(row.id, 'expired')
  }

  /** Closes the channels here whose card token ended meanwhile (above all: a device that expired, by the clock). */
  let checking = false
  const checkTokens = async (): Promise<void> => {
    if (checking || closing) return
    checking = true
    try {
      await checkMirrorExpiry().catch(() => undefined)
      const byToken = new Map<string, Array<LocalChannel | ThumbChannel>>()
      for (const socket of sockets) {
        for (const channel of socket.channels.values()) {
          // a relayed viewer is checked where its screen is made (its local channel there)
          if (channel.kind === 'local') byToken.set(channel.token, [...(byToken.get(channel.token) ?? []), channel])
        }
        for (const channel of socket.thumbs.values()) byToken.set(channel.token, [...(byToken.get(channel.token) ?? []), channel])
      }
      if (byToken.size === 0) return
      const ended = await endedCardTokens(db, [...byToken.keys()], clock.now())
      for (const [token, reason] of ended) {
        for (const channel of byToken.get(token) ?? []) {
          if (channel.kind === 'thumb') {
            if (channel.socket.thumbs.get(channel.cardId) === channel) closeThumb(channel, reason)
          } else if (channel.socket.channels.get(channel.cardId) === channel) closeChannel(channel, reason)
        }
      }
    } finally {
      checking = false
    }
  }
  const expiry = createExpiryTimers(clock, {
    expiryOf: async (deviceId) => {
      const row = await db.selectFrom('devices').select('expires_at').where('id', '=', deviceId).executeTakeFirst()
      return row ? new Date(row.expires_at).getTime() : null
    },
    open: (deviceId) => {
      const phone = phones.get(deviceId)
      if (phone && (phone.viewers.size > 0 || phone.thumbViewers.size > 0)) return true
      return [...sockets].some((s) => [...s.mirrors.values()].some((targets) => [...targets.values()].some((t) => t.deviceId === deviceId)))
    },
    expire: (deviceId) => self.kick(deviceId, 'expired'),
  })

  const tokenTimer = setInterval(() => void checkTokens().catch(() => undefined), options.tokenCheckMs ?? CARD_TOKEN_CHECK_MS)
  tokenTimer.unref()
  // ended tokens do not pile up (every instance purges; the delete is idempotent)
  const purgeTimer = setInterval(() => void purgeCardTokens(db, clock.now()).catch(() => undefined), CARD_TOKEN_PURGE_MS)
  purgeTimer.unref()

  const open = async (socket: ClientSocket, message: StreamClientMessage & { op: 'open' }): Promise<void> => {
    const previous = socket.channels.get(message.cardId)
    if (previous) detach(previous)
    if (socket.channels.size >= STREAM_LIMITS.maxChannelsPerSocket) return sendJson(socket, { op: 'closed', cardId: message.cardId, reason: 'refused' })
    const result = await checkToken(socket, message.cardId, message.cardToken)
    if (socket.closed) return
    if (typeof result === 'string') {
      sendJson(socket, { op: 'closed', cardId: message.cardId, reason: result })
      if (result === 'refused') refusedToken(socket)
      return
    }
    if (socket.channels.has(message.cardId)) return // opened again meanwhile: that open answers
    if (!socket.relayed) holdFor(result.userId, socket)
    if (socket.relayed) return openLocal(socket, message.cardId, result, message.preset, message.audio)
    const placement = await leases.claim(result.deviceId).catch(() => null)
    if (socket.closed || socket.channels.has(message.cardId)) return
    if (placement?.local) return openLocal(socket, message.cardId, result, message.preset, message.audio)
    const secret = options.relaySecret ? await options.relaySecret().catch(() => null) : null
    if (socket.closed || socket.channels.has(message.cardId)) return
    if (!placement || !placement.url || !secret) return sendJson(socket, { op: 'closed', cardId: message.cardId, reason: 'unavailable' })
    openRelay(socket, placement.url, message, result, secret)
  }

  // ---- sockets ----

  /** the socket's token bucket over every message it sends (STREAM_LIMITS); `cost` tokens for a message's work. */
  const allow = (socket: ClientSocket, cost = 1): boolean => {
    const t = clock.now()
    socket.tokens = Math.min(STREAM_LIMITS.controlBurst, socket.tokens + ((t - socket.tokensAt) / 1000) * STREAM_LIMITS.controlPerSecond)
    socket.tokensAt = t
    if (socket.tokens < cost) return false
    socket.tokens -= cost
    return true
  }

  const onText = (socket: ClientSocket, text: string): void => {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      return
    }
    const decoded = decodeClientMessage(raw)
    if (decoded._tag === 'None') return
    const message = decoded.value
    if (message.op === 'ping') {
      // a reader this far behind gets no pong: its own measure says it is behind
      if (socket.ws.bufferedAmount > STREAM_MAX_BUFFERED_BYTES) return
      return sendJson(socket, { op: 'pong', t: message.t })
    }
    if (message.op === 'open') return void open(socket, message)
    if (message.op === 'thumb') return void thumb(socket, message)
    if (message.op === 'mirror') {
      // the message has cost a token; each target not yet authorised this session costs one more (its queries)
      const known = socket.grants.get(message.cardId)
      const fresh = new Set(message.targets.filter((t) => t !== message.cardId && !known?.has(t))).size
      if (!socket.relayed && !allow(socket, fresh)) {
        return sendJson(socket, { op: 'mirrored', cardId: message.cardId, targets: [...(socket.mirrors.get(message.cardId)?.keys() ?? [])],
          refused: [...new Set(message.targets)].map((cardId) => ({ cardId, reason: 'flood' as const })) })
      }
      return void mirror(socket, message)
    }
    if (message.op === 'unthumb') {
      const t = socket.thumbs.get(message.cardId)
      return t ? detachThumb(t) : undefined
    }
    const channel = socket.channels.get(message.cardId)
    if (!channel) return
    if (channel.kind === 'relay') {
      if (message.op === 'close') return detach(channel)
      return forward(channel, text)
    }
    if (message.op === 'close') return detach(channel)
    if (message.op === 'preset') return changePreset(channel, message.preset)
    if (message.op === 'audio') {
      // turned on again: the audio metadata and config come first
      channel.audio = message.on
      channel.audioPrimed = false
      syncAudio(channel.phone)
    }
  }

  /**
   * A new preset is a new encoder, and every viewer of the phone gets new metadata, config and a keyframe: a viewer
   * changes it at most once per PRESET_CHANGE_GAP_MS (issue 41 finding 6); one asked sooner is applied at the gap's end.
   */
  const changePreset = (channel: LocalChannel, preset: StreamPreset): void => {
    if (channel.presetTimer) clearTimeout(channel.presetTimer)
    channel.presetTimer = null
    const wait = channel.lastPresetAt + PRESET_CHANGE_GAP_MS - performance.now()
    if (wait > 0) {
      channel.presetTimer = setTimeout(() => {
        channel.presetTimer = null
        if (channel.socket.channels.get(channel.cardId) === channel) changePreset(channel, preset)
      }, wait)
      channel.presetTimer.unref()
      return
    }
    if (channel.phone.preset === preset) return
    channel.lastPresetAt = performance.now()
    channel.phone.preset = preset
    produce(channel.phone)
  }

  const onBinary = (socket: ClientSocket, bytes: Uint8Array, allowed: boolean): void => {
    const frame = decodeChannelFrame(bytes)
    if (!frame || frame.kind !== STREAM_KIND.control) return
    const channel = socket.channels.get(frame.cardId)
    if (!channel) return
    if (!allowed) return closeChannel(channel, 'flood')
    if (channel.kind === 'relay') return forward(channel, bytes)
    applyInput(channel, frame.payload)
  }

  /** a made-up card token costs a lookup: a socket that never proved itself gets only a few (stream-admission.ts). */
  const refusedToken = (socket: ClientSocket): void => {
    if (socket.relayed || socket.userId !== null) return
    socket.refusals += 1
    const withinAddress = addresses.refused(socket.address)
    if (socket.refusals >= STREAM_ADMISSION.maxRefusals || !withinAddress) socket.ws.close(CLOSE_POLICY_VIOLATION, 'refused')
  }

  /** each user's browser sockets on this instance, oldest first (issue 11 finding 11, as for push sockets). */
  const byUser = new Map<number, Set<ClientSocket>>()
  const holdFor = (userId: number, socket: ClientSocket): void => {
    if (socket.userId !== null) return
    socket.userId = userId
    addresses.proved(socket.address)
    if (socket.authTimer) clearTimeout(socket.authTimer)
    socket.authTimer = null
    const held = byUser.get(userId) ?? new Set<ClientSocket>()
    byUser.set(userId, held)
    held.add(socket)
    if (held.size > STREAM_LIMITS.maxSocketsPerUser) {
      const oldest = held.values().next().value!
      held.delete(oldest)
      oldest.ws.close(CLOSE_POLICY_VIOLATION, 'too many streams')
    }
  }
  /** (re)arms the idle close of a socket that views no phone; disarmed while it views one. */
  const watchIdle = (socket: ClientSocket): void => {
    if (socket.idleTimer) clearTimeout(socket.idleTimer)
    socket.idleTimer = null
    if (socket.closed || socket.relayed || socket.channels.size > 0 || socket.thumbs.size > 0) return
    socket.idleTimer = setTimeout(() => {
      if (socket.channels.size === 0 && socket.thumbs.size === 0) socket.ws.close(1000, 'idle')
    }, options.idleSocketMs ?? STREAM_LIMITS.idleSocketMs)
    socket.idleTimer.unref()
  }

  const accept = (ws: WebSocket, relayed: boolean, address: string): void => {
    const socket: ClientSocket = {
      ws, relayed, channels: new Map(), thumbs: new Map(), mirrors: new Map(), tokens: STREAM_LIMITS.controlBurst, tokensAt: clock.now(), closed: false,
      userId: null, idleTimer: null, address, refusals: 0, grants: new Map(), mirroring: false, nextMirror: null, authTimer: null,
      tokenChecks: Promise.resolve(),
    }
    sockets.add(socket)
    watchIdle(socket)
    if (!relayed) {
      addresses.add(address)
      socket.authTimer = setTimeout(() => {
        if (socket.userId === null) ws.close(CLOSE_POLICY_VIOLATION, 'no credential')
      }, options.authDeadlineMs ?? STREAM_ADMISSION.authDeadlineMs)
      socket.authTimer.unref()
    }
    ws.on('message', (data, isBinary) => {
      // every message costs a token, pings and junk too (issue 41 finding 3); a relay's were counted where they came in
      const allowed = relayed || allow(socket)
      if (isBinary) onBinary(socket, toBytes(data), allowed)
      else if (allowed) onText(socket, data.toString())
    })
    const gone = () => {
      if (socket.closed) return
      socket.closed = true
      sockets.delete(socket)
      if (socket.idleTimer) clearTimeout(socket.idleTimer)
      if (socket.authTimer) clearTimeout(socket.authTimer)
      if (!relayed) addresses.remove(address, socket.userId !== null)
      if (socket.userId !== null) {
        const held = byUser.get(socket.userId)
        held?.delete(socket)
        if (held?.size === 0) byUser.delete(socket.userId)
      }
      for (const channel of [...socket.channels.values()]) detach(channel)
      for (const channel of [...socket.thumbs.values()]) detachThumb(channel)
    }
    ws.on('close', gone)
    ws.on('error', gone)
  }

  let relaySecretValue: string | null = null
  const relayAllowed = async (given: string): Promise<boolean> => {
    if (!options.relaySecret) return false
    relaySecretValue ??= await options.relaySecret()
    const a = Buffer.from(given)
    const b = Buffer.from(relaySecretValue)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  const forPhone = (deviceId: number, userId: number | undefined, act: (c: Channel) => void): void => {
    for (const socket of sockets) {
      for (const channel of [...socket.channels.values()]) {
        if (channel.deviceId !== deviceId || (userId !== undefined && channel.userId !== userId)) continue
        act(channel)
      }
    }
  }

  const changePhone = (deviceId: number, change: (s: PhoneState) => PhoneState): void => {
    const phone = phoneOf(deviceId)
    phone.state = change(phone.state)
    produce(phone)
    thumbTick(phone)
  }

  const self: LocalStreamServer = {
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (url.pathname !== STREAM_PATH) return false
      socket.on('error', () => undefined)
      const relay = request.headers[RELAY_HEADER]
      if (typeof relay === 'string') {
        relayAllowed(relay).then(
          (ok) => {
            if (socket.destroyed) return
            if (!ok) return void socket.destroy()
            wss.handleUpgrade(request, socket, head, (ws) => accept(ws, true, ''))
          },
          () => socket.destroy(),
        )
        return true
      }
      const address = upgradeAddress(request, trustedProxies)
      if (!addresses.admits(address)) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return true
      }
      wss.handleUpgrade(request, socket, head, (ws) => accept(ws, false, address))
      return true
    },
    kick(deviceId, reason, userId) {
      forPhone(deviceId, userId, (channel) => closeChannel(channel, reason))
      dropTarget(deviceId, reason, userId)
      for (const socket of sockets) {
        for (const t of [...socket.thumbs.values()]) if (t.deviceId === deviceId && (userId === undefined || t.userId === userId)) closeThumb(t, reason)
      }
    },
    endSessions(digests) {
      const ended = new Set(digests)
      for (const socket of sockets) {
        for (const channel of [...socket.channels.values()]) if (ended.has(channel.session)) closeChannel(channel, 'sessionEnded')
        for (const t of [...socket.thumbs.values()]) if (ended.has(t.session)) closeThumb(t, 'sessionEnded')
      }
    },
    resetPhone(deviceId) {
      const phone = phones.get(deviceId)
      if (!phone) return
      phone.state = { ...initialPhone, inputSeq: phone.state.inputSeq }
      syncAudio(phone)
      produce(phone)
      thumbTick(phone)
    },
    installApp: (deviceId, name) => changePhone(deviceId, (s) => installAppOn(s, name)),
    addFile: (deviceId, name, size) => changePhone(deviceId, (s) => addFileTo(s, name, size)),
    typeText: (deviceId, text, paste) => changePhone(deviceId, (s) =>
      applyControl(s, { type: 'setClipboard', sequence: 0n, paste, text, bytes: Buffer.byteLength(text, 'utf8') }, clock.now()).state),
    phoneState: (deviceId) => phones.get(deviceId)?.state ?? null,
    encoding: (deviceId) => (phones.get(deviceId)?.screen ?? null) !== null,
    thumbSubscribers: (deviceId) => phones.get(deviceId)?.thumbViewers.size ?? 0,
    socketCount: () => wss.clients.size,
    dropSockets() {
      const n = wss.clients.size
      for (const ws of wss.clients) ws.terminate()
      return n
    },
    viewerCount(deviceId) {
      let n = 0
      forPhone(deviceId, undefined, () => void (n += 1))
      return n
    },
    async close() {
      closing = true
      clearInterval(leaseTimer)
      clearInterval(tokenTimer)
      clearInterval(purgeTimer)
      expiry.close()
      for (const phone of phones.values()) {
        if (phone.releaseTimer) clearTimeout(phone.releaseTimer)
        release(phone)
      }
      for (const socket of sockets) {
        for (const channel of [...socket.channels.values()]) detach(channel)
        for (const channel of [...socket.thumbs.values()]) detachThumb(channel)
      }
      for (const ws of wss.clients) ws.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
  return self
}
