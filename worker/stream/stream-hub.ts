// The core's phone streams: ONE socket per browser multiplexing every phone any visible tab views. Per phone it keeps
// the scrcpy metadata, the last config and the packets since the last keyframe, so a second tab (or a tab shown
// again) paints at once from the cache instead of asking the server for a new stream. Hidden tabs get nothing; a
// phone nobody visible views is closed after a grace period, and the socket when no phone is left.
//
// The wall (thumbnails): each tab hands one wall port and tells which cards' tiles it has on screen; the core
// subscribes the union over visible tabs on the same socket (`thumb`), keeps each card's last still (a tab opened or
// shown later paints every tile from it at once) and unsubscribes a card no visible tab shows after the same grace.
// A card whose thumbnails ended loses its still (its tiles show why); without a card token the core asks a tab for one.
import type { CoreToDecoder, CoreToTab, OpenStreamInput, StreamState, TabToCore, TabToWall, WallToTab } from '../protocol/stream-ports.ts'
import {
  AUDIO_META_BYTES, decodeChannelFrame, encodeChannelFrame, readMediaPacketHeader, SCRCPY_RESET_VIDEO, STREAM_KIND,
  MIRROR_MAX_TARGETS, parseStreamServerMessage, type StreamClientMessage, type StreamCloseReason, type StreamPreset,
} from '../protocol/stream.ts'

export interface StreamSocket {
  readonly send: (data: string | Uint8Array) => void
  readonly close: () => void
}
export interface StreamSocketHandlers {
  readonly onOpen: () => void
  readonly onMessage: (data: string | Uint8Array) => void
  /** a close or error the hub did not ask for; at most once. */
  readonly onDown: () => void
}
export type OpenStreamSocket = (url: string, handlers: StreamSocketHandlers) => StreamSocket

/** The two ports a tab hands over for one phone (MessagePort in the browser, fakes in tests). */
export interface HubPort<Out> {
  postMessage(message: Out): void
  onmessage: ((event: { data: unknown }) => void) | null
  close(): void
}

export interface StreamTimers {
  readonly now: () => number
  readonly setTimeout: (f: () => void, ms: number) => unknown
  readonly clearTimeout: (handle: unknown) => void
  readonly setInterval: (f: () => void, ms: number) => unknown
  readonly clearInterval: (handle: unknown) => void
}

export const STREAM_TIMING = {
  /** a phone that no visible tab shows is closed on the server after this. */
  phoneGraceMs: 3_000,
  /** the socket with no phone left is closed after this. */
  socketGraceMs: 10_000,
  /** reconnect delays after a drop (the last repeats); the first is immediate. */
  reconnectMs: [0, 250, 500, 1_000] as ReadonlyArray<number>,
  pingMs: 1_000,
  /** no pong for this long: the socket is taken as dead (a half-open TCP connection never closes by itself). */
  deadAfterMs: 3_500,
  /** packets kept since the last keyframe; past it the cache waits for the next keyframe. */
  maxGopPackets: 400,
  /** a card's thumbnails that ended for a passing reason (restarting, unavailable, flood, a stale token) are asked again after this. */
  thumbRetryMs: 5_000,
} as const

interface Viewer {
  readonly id: number
  readonly tabId: string
  readonly decoder: HubPort<CoreToDecoder>
  readonly control: HubPort<CoreToTab>
  audio: boolean
  /** has had the current stream's start (metadata, config, GOP) posted. */
  primed: boolean
  /** group control: the phones this viewer's input is mirrored to (empty: none). */
  mirror: ReadonlyArray<number>
}

interface Phone {
  readonly cardId: number
  token: string
  preset: StreamPreset
  state: 'idle' | 'opening' | 'open'
  /** the next video payload is the stream's metadata. */
  expectMeta: boolean
  meta: Uint8Array | null
  config: Uint8Array | null
  gop: Array<Uint8Array>
  audioMeta: Uint8Array | null
  audioConfig: Uint8Array | null
  /** whether the server was told some viewer wants sound (open's flag, then `audio` messages). */
  serverAudio: boolean
  readonly viewers: Map<number, Viewer>
  graceTimer: unknown
  bytesThisSecond: number
  live: boolean
  /** the mirror set the server was last told (the union of the viewers'), as sorted text; null: to be told again. */
  serverMirror: string | null
}

interface Thumb {
  readonly cardId: number
  token: string | null
  /** subscribed on the server (sent `thumb`), or not. */
  state: 'idle' | 'open'
  still: Uint8Array | null
  at: number
  ended: StreamCloseReason | null
  graceTimer: unknown
  retryTimer: unknown
  tokenAsked: boolean
}

interface Wall {
  readonly id: number
  readonly tabId: string
  readonly port: HubPort<WallToTab>
  want: Set<number>
}

export interface StreamHub {
  /** a tab starts showing a phone; answers the viewer id used to stop. */
  open(tabId: string, input: OpenStreamInput, decoder: HubPort<CoreToDecoder>, control: HubPort<CoreToTab>): number
  close(viewerId: number): void
  /** a tab's visibility changed (or it closed: visible false then release). */
  setVisible(tabId: string, visible: boolean): void
  releaseTab(tabId: string): void
  /** a tab's wall port (TabToWall in, WallToTab out); answers the id used to detach it. */
  attachWall(tabId: string, port: HubPort<WallToTab>): number
  detachWall(wallId: number): void
  /** for tests and the bench: sockets opened so far, phones open on the server now, cards whose thumbnails are subscribed. */
  stats(): { readonly socketsOpened: number; readonly phonesOpen: number; readonly socketOpen: boolean; readonly thumbsOpen: number }
  dispose(): void
}

export const makeStreamHub = (o: {
  readonly url: string
  readonly openSocket: OpenStreamSocket
  readonly timers: StreamTimers
  readonly isVisible: (tabId: string) => boolean
}): StreamHub => {
  const { timers } = o
  const phones = new Map<number, Phone>()
  const viewers = new Map<number, { viewer: Viewer; phone: Phone }>()
  let nextViewerId = 1
  let socket: StreamSocket | null = null
  let socketUp = false
  let socketsOpened = 0
  let reconnectAttempt = 0
  let reconnectTimer: unknown = null
  let socketGraceTimer: unknown = null
  let lastPong = 0
  let pinger: unknown = null
  let disposed = false
  const thumbs = new Map<number, Thumb>()
  const walls = new Map<number, Wall>()
  let nextWallId = 1

  const visibleViewers = (phone: Phone) => [...phone.viewers.values()].filter((v) => o.isVisible(v.tabId))
  const wanted = (phone: Phone) => visibleViewers(phone).length > 0
  const wallsShowing = (cardId: number) => [...walls.values()].filter((w) => w.want.has(cardId) && o.isVisible(w.tabId))
  const thumbWanted = (cardId: number) => wallsShowing(cardId).length > 0
  const anyWanted = () => [...phones.values()].some(wanted) || [...thumbs.keys()].some(thumbWanted)

  const post = <T>(port: HubPort<T>, message: T) => {
    try {
      port.postMessage(message)
    } catch {
      // a port whose tab went away: the tab registry releases it
    }
  }
  const tellTabs = (phone: Phone, message: CoreToTab) => phone.viewers.forEach((v) => post(v.control, message))
  const status = (phone: Phone, state: StreamState, reason?: StreamCloseReason) =>
    tellTabs(phone, reason === undefined ? { t: 'status', state } : { t: 'status', state, reason })

  const sendJson = (message: StreamClientMessage) => socketUp && socket?.send(JSON.stringify(message))
  const sendControl = (cardId: number, bytes: Uint8Array) =>
    socketUp && socket?.send(encodeChannelFrame(STREAM_KIND.control, cardId, bytes))

  /** posts the cached start of the stream to a viewer that has not had it: it can decode from the next packet on. */
  const prime = (phone: Phone, viewer: Viewer) => {
    if (viewer.primed || phone.meta === null || phone.config === null || phone.gop.length === 0) return
    viewer.primed = true
    post(viewer.decoder, { t: 'restart' })
    for (const bytes of [phone.meta, phone.config, ...phone.gop]) post(viewer.decoder, { t: 'video', bytes })
    if (viewer.audio && phone.audioMeta !== null) {
      post(viewer.decoder, { t: 'audio', bytes: phone.audioMeta })
      if (phone.audioConfig !== null) post(viewer.decoder, { t: 'audio', bytes: phone.audioConfig })
    }
  }

  const wantsAudio = (phone: Phone) => [...phone.viewers.values()].some((v) => v.audio)

  const openOnServer = (phone: Phone) => {
    if (!socketUp || phone.state !== 'idle') return
    phone.state = 'opening'
    phone.expectMeta = true
    phone.serverAudio = wantsAudio(phone)
    sendJson({ op: 'open', cardId: phone.cardId, cardToken: phone.token, preset: phone.preset, audio: phone.serverAudio })
  }

  /** tells the server whether any viewer wants sound when that changed (an open phone only: it ignores it before). */
  const syncAudio = (phone: Phone) => {
    if (phone.state !== 'open' || wantsAudio(phone) === phone.serverAudio) return
    phone.serverAudio = wantsAudio(phone)
    sendJson({ op: 'audio', cardId: phone.cardId, on: phone.serverAudio })
  }

  /** group control: tells the server the union of the viewers' mirror sets when it changed (an open phone only). */
  const mirrorOf = (phone: Phone) => [...new Set([...phone.viewers.values()].flatMap((v) => v.mirror))].sort((a, b) => a - b)
  const syncMirror = (phone: Phone) => {
    if (phone.state !== 'open') return
    const targets = mirrorOf(phone)
    const key = targets.join(',')
    if (key === phone.serverMirror) return
    phone.serverMirror = key
    sendJson({ op: 'mirror', cardId: phone.cardId, targets })
  }

  /** the video cache (a new video stream); with `audio`, the audio cache too (a new server stream). */
  const resetCache = (phone: Phone, audio: boolean) => {
    phone.meta = null
    phone.config = null
    phone.gop = []
    if (audio) {
      phone.audioMeta = null
      phone.audioConfig = null
    }
    phone.viewers.forEach((v) => { v.primed = false })
  }

  const closeOnServer = (phone: Phone) => {
    if (phone.state !== 'idle') sendJson({ op: 'close', cardId: phone.cardId })
    phone.state = 'idle'
    phone.live = false
    resetCache(phone, true)
  }

  const dropPhone = (phone: Phone) => {
    timers.clearTimeout(phone.graceTimer)
    closeOnServer(phone)
    phones.delete(phone.cardId)
    for (const v of phone.viewers.values()) viewers.delete(v.id)
    settleSocket()
  }

  /** opens the socket when a visible viewer needs it; closes it after a grace when none does. */
  const settleSocket = () => {
    if (disposed) return
    const needed = anyWanted()
    if (needed) {
      timers.clearTimeout(socketGraceTimer)
      socketGraceTimer = null
      if (socket === null && reconnectTimer === null) connect()
      return
    }
    if (socket !== null && socketGraceTimer === null) {
      socketGraceTimer = timers.setTimeout(() => {
        socketGraceTimer = null
        if (!anyWanted()) shutSocket()
      }, STREAM_TIMING.socketGraceMs)
    }
  }

  const shutSocket = () => {
    const s = socket
    socket = null
    socketUp = false
    timers.clearInterval(pinger)
    pinger = null
    for (const phone of phones.values()) {
      phone.state = 'idle'
      phone.live = false
      resetCache(phone, true)
    }
    // the stills stay: they are the wall's cache
    for (const thumb of thumbs.values()) thumb.state = 'idle'
    s?.close()
  }

  const onDown = (which: StreamSocket) => {
    if (which !== socket) return
    shutSocket()
    if (disposed) return
    const needed = anyWanted()
    for (const phone of phones.values()) status(phone, 'reconnecting')
    if (!needed) return
    const delays = STREAM_TIMING.reconnectMs
    const delay = delays[Math.min(reconnectAttempt, delays.length - 1)]!
    reconnectAttempt += 1
    reconnectTimer = timers.setTimeout(() => {
      reconnectTimer = null
      settleSocket()
    }, delay)
  }

  const connect = () => {
    socketsOpened += 1
    let self: StreamSocket | null = null
    const handlers: StreamSocketHandlers = {
      onOpen: () => {
        if (self !== socket) return
        socketUp = true
        lastPong = timers.now()
        pinger = timers.setInterval(ping, STREAM_TIMING.pingMs)
        for (const phone of phones.values()) if (wanted(phone)) openOnServer(phone)
        for (const thumb of thumbs.values()) settleThumb(thumb)
      },
      onMessage: (data) => {
        if (self !== socket) return
        lastPong = timers.now()
        if (typeof data === 'string') onText(data)
        else onBinary(data)
      },
      onDown: () => self !== null && onDown(self),
    }
    self = o.openSocket(o.url, handlers)
    socket = self
  }

  const ping = () => {
    if (!socketUp || socket === null) return
    if (timers.now() - lastPong > STREAM_TIMING.deadAfterMs) return onDown(socket)
    sendJson({ op: 'ping', t: timers.now() })
    for (const phone of phones.values()) {
      if (phone.state !== 'open') continue
      tellTabs(phone, { t: 'bitrate', bytesPerSecond: Math.round(phone.bytesThisSecond * 1000 / STREAM_TIMING.pingMs) })
      phone.bytesThisSecond = 0
    }
  }

  const onText = (text: string) => {
    const message = parseStreamServerMessage(text)
    if (message === null) return
    if (message.op === 'pong') {
      const ms = Math.max(0, Math.round(timers.now() - message.t))
      for (const phone of phones.values()) if (phone.state === 'open') tellTabs(phone, { t: 'latency', ms })
      return
    }
    if (message.op === 'thumbClosed') return onThumbClosed(message.cardId, message.reason)
    const phone = phones.get(message.cardId)
    if (phone === undefined) return
    if (message.op === 'opened') {
      reconnectAttempt = 0
      phone.state = 'open'
      phone.preset = message.preset
      tellTabs(phone, { t: 'preset', preset: message.preset })
      syncAudio(phone)
      // a new server channel mirrors nothing yet: told the set, if there is one
      phone.serverMirror = mirrorOf(phone).length > 0 ? null : ''
      syncMirror(phone)
      return
    }
    if (message.op === 'mirrored') {
      tellTabs(phone, { t: 'mirrored', targets: message.targets, refused: message.refused })
      return
    }
    // closed: the phone's viewers are told why; they connect again if they can (a restart) or leave
    status(phone, 'closed', message.reason)
    phone.state = 'idle'
    dropPhone(phone)
  }

  const onVideo = (phone: Phone, payload: Uint8Array) => {
    if (phone.expectMeta) {
      phone.expectMeta = false
      // the audio stream is independent of the video's: its metadata may have come first
      resetCache(phone, false)
      phone.meta = payload
      return
    }
    const header = readMediaPacketHeader(payload)
    if (header === null) return
    if (header.config) {
      // a new encoder (rotation, preset): viewers restart from its config
      phone.config = payload
      phone.gop = []
      phone.viewers.forEach((v) => { v.primed = false })
      return
    }
    if (header.keyframe) phone.gop = [payload]
    else if (phone.gop.length > 0 && phone.gop.length < STREAM_TIMING.maxGopPackets) phone.gop.push(payload)
    else if (phone.gop.length >= STREAM_TIMING.maxGopPackets) phone.gop = []
    if (!phone.live && phone.gop.length > 0) {
      phone.live = true
      status(phone, 'live')
    }
    for (const v of phone.viewers.values()) {
      if (!o.isVisible(v.tabId)) continue
      if (!v.primed) prime(phone, v)
      else post(v.decoder, { t: 'video', bytes: payload })
    }
  }

  const onAudio = (phone: Phone, payload: Uint8Array) => {
    // the codec metadata (a new audio stream: it is followed by its config), or a packet
    if (payload.byteLength === AUDIO_META_BYTES) {
      phone.audioMeta = payload
      phone.audioConfig = null
    } else {
      const header = readMediaPacketHeader(payload)
      if (header === null || phone.audioMeta === null) return
      if (header.config) phone.audioConfig = payload
      else if (phone.audioConfig === null) return
    }
    for (const v of phone.viewers.values()) {
      if (v.audio && v.primed && o.isVisible(v.tabId)) post(v.decoder, { t: 'audio', bytes: payload })
    }
  }

  const onBinary = (data: Uint8Array) => {
    const frame = decodeChannelFrame(data)
    if (frame === null) return
    if (frame.kind === STREAM_KIND.thumbnail) return onStill(frame.cardId, frame.payload)
    const phone = phones.get(frame.cardId)
    if (phone === undefined || phone.state !== 'open') return
    phone.bytesThisSecond += data.byteLength
    if (frame.kind === STREAM_KIND.video) onVideo(phone, frame.payload)
    else if (frame.kind === STREAM_KIND.audio) onAudio(phone, frame.payload)
    else if (frame.kind === STREAM_KIND.control) tellTabs(phone, { t: 'device', bytes: frame.payload.slice() })
  }

  const onTabMessage = (phone: Phone, viewer: Viewer, data: unknown) => {
    if (typeof data !== 'object' || data === null) return
    const m = data as TabToCore
    if (m.t === 'control' && m.bytes instanceof Uint8Array) {
      if (phone.state === 'open') sendControl(phone.cardId, m.bytes)
    } else if (m.t === 'preset') {
      phone.preset = m.preset
      if (phone.state !== 'idle') sendJson({ op: 'preset', cardId: phone.cardId, preset: m.preset })
    } else if (m.t === 'audio') {
      const on = m.on === true
      if (on && !viewer.audio && viewer.primed && phone.audioMeta !== null) {
        // turned on mid-stream while the phone already plays to another viewer: the cached start first
        post(viewer.decoder, { t: 'audio', bytes: phone.audioMeta })
        if (phone.audioConfig !== null) post(viewer.decoder, { t: 'audio', bytes: phone.audioConfig })
      }
      viewer.audio = on
      syncAudio(phone)
    } else if (m.t === 'mirror' && Array.isArray(m.targets)) {
      viewer.mirror = m.targets.filter((t) => typeof t === 'number' && Number.isInteger(t) && t > 0).slice(0, MIRROR_MAX_TARGETS)
      // asked again: the server answers with the targets as they are now (a phone that finished restarting joins)
      phone.serverMirror = null
      syncMirror(phone)
    } else if (m.t === 'keyframe') {
      viewer.primed = false
      prime(phone, viewer)
      if (phone.state === 'open') sendControl(phone.cardId, Uint8Array.of(SCRCPY_RESET_VIDEO))
    }
  }

  /** re-evaluates one phone after a viewer or visibility change. */
  const settlePhone = (phone: Phone) => {
    if (phone.viewers.size === 0) return dropPhone(phone)
    if (wanted(phone)) {
      timers.clearTimeout(phone.graceTimer)
      phone.graceTimer = null
      for (const v of visibleViewers(phone)) prime(phone, v)
      openOnServer(phone)
    } else if (phone.graceTimer === null && phone.state !== 'idle') {
      phone.graceTimer = timers.setTimeout(() => {
        phone.graceTimer = null
        if (!wanted(phone)) {
          closeOnServer(phone)
          settleSocket()
        }
      }, STREAM_TIMING.phoneGraceMs)
    }
    settleSocket()
  }

  // ---- the wall ----

  const thumbOf = (cardId: number): Thumb => {
    let thumb = thumbs.get(cardId)
    if (thumb === undefined) {
      thumb = { cardId, token: null, state: 'idle', still: null, at: 0, ended: null, graceTimer: null, retryTimer: null, tokenAsked: false }
      thumbs.set(cardId, thumb)
    }
    return thumb
  }

  /** what a wall shows for the card now: its still, or why it has none. */
  const replay = (wall: Wall, thumb: Thumb) => {
    if (thumb.still !== null) post(wall.port, { t: 'still', cardId: thumb.cardId, bytes: thumb.still, at: thumb.at })
    else if (thumb.ended !== null) post(wall.port, { t: 'ended', cardId: thumb.cardId, reason: thumb.ended })
  }

  /** subscribes a card some visible wall shows (asking a tab for a token when it has none); unsubscribes after a grace. */
  const settleThumb = (thumb: Thumb) => {
    if (thumbWanted(thumb.cardId)) {
      timers.clearTimeout(thumb.graceTimer)
      thumb.graceTimer = null
      if (thumb.token === null) {
        if (!thumb.tokenAsked) {
          thumb.tokenAsked = true
          const wall = wallsShowing(thumb.cardId)[0]
          if (wall !== undefined) post(wall.port, { t: 'needToken', cardId: thumb.cardId })
        }
        return
      }
      if (socketUp && thumb.state === 'idle' && thumb.retryTimer === null) {
        thumb.state = 'open'
        sendJson({ op: 'thumb', cardId: thumb.cardId, cardToken: thumb.token })
      }
    } else if (thumb.state === 'open' && thumb.graceTimer === null) {
      thumb.graceTimer = timers.setTimeout(() => {
        thumb.graceTimer = null
        if (thumbWanted(thumb.cardId) || thumb.state !== 'open') return
        thumb.state = 'idle'
        sendJson({ op: 'unthumb', cardId: thumb.cardId })
        settleSocket()
      }, STREAM_TIMING.phoneGraceMs)
    }
  }

  const onStill = (cardId: number, payload: Uint8Array) => {
    const thumb = thumbs.get(cardId)
    if (thumb === undefined || thumb.state !== 'open') return
    reconnectAttempt = 0
    thumb.still = payload.slice()
    thumb.at = timers.now()
    thumb.ended = null
    for (const wall of wallsShowing(cardId)) replay(wall, thumb)
  }

  const onThumbClosed = (cardId: number, reason: StreamCloseReason) => {
    const thumb = thumbs.get(cardId)
    if (thumb === undefined) return
    thumb.state = 'idle'
    // never a stale picture of a phone that is expired, restarting, gone
    thumb.still = null
    thumb.ended = reason
    timers.clearTimeout(thumb.graceTimer)
    thumb.graceTimer = null
    for (const wall of [...walls.values()]) if (wall.want.has(cardId) && o.isVisible(wall.tabId)) replay(wall, thumb)
    if (reason === 'expired' || reason === 'accessRemoved') return
    // a token that ended (refused, its session): a new one from a tab; a passing reason: again after a while
    if (reason === 'refused' || reason === 'sessionEnded') {
      thumb.token = null
      thumb.tokenAsked = false
    }
    timers.clearTimeout(thumb.retryTimer)
    thumb.retryTimer = timers.setTimeout(() => {
      thumb.retryTimer = null
      settleThumb(thumb)
    }, STREAM_TIMING.thumbRetryMs)
  }

  const onWallMessage = (wall: Wall, data: unknown) => {
    if (typeof data !== 'object' || data === null) return
    const m = data as TabToWall
    if (m.t === 'want' && Array.isArray(m.cards)) {
      const before = wall.want
      wall.want = new Set(m.cards.filter((c): c is number => typeof c === 'number' && Number.isInteger(c) && c > 0))
      for (const cardId of wall.want) {
        const thumb = thumbOf(cardId)
        if (!before.has(cardId) && o.isVisible(wall.tabId)) replay(wall, thumb)
        settleThumb(thumb)
      }
      for (const cardId of before) if (!wall.want.has(cardId)) settleThumb(thumbOf(cardId))
      settleSocket()
    } else if (m.t === 'token' && typeof m.cardId === 'number' && typeof m.cardToken === 'string') {
      const thumb = thumbOf(m.cardId)
      thumb.token = m.cardToken
      thumb.tokenAsked = false
      if (thumb.ended === 'expired' || thumb.ended === 'accessRemoved') {
        // a new connect succeeded: renewed or authorised again
        timers.clearTimeout(thumb.retryTimer)
        thumb.retryTimer = null
      }
      settleThumb(thumb)
      settleSocket()
    }
  }

  const detachWall = (wallId: number) => {
    const wall = walls.get(wallId)
    if (wall === undefined) return
    walls.delete(wallId)
    wall.port.onmessage = null
    for (const cardId of wall.want) settleThumb(thumbOf(cardId))
    settleSocket()
  }

  const removeViewer = (viewerId: number) => {
    const entry = viewers.get(viewerId)
    if (entry === undefined) return
    viewers.delete(viewerId)
    entry.phone.viewers.delete(viewerId)
    entry.viewer.control.onmessage = null
    syncAudio(entry.phone)
    syncMirror(entry.phone)
    settlePhone(entry.phone)
  }

  return {
    open(tabId, input, decoder, control) {
      let phone = phones.get(input.cardId)
      if (phone === undefined) {
        phone = {
          cardId: input.cardId, token: input.cardToken, preset: input.preset, state: 'idle', expectMeta: false,
          meta: null, config: null, gop: [], audioMeta: null, audioConfig: null, serverAudio: false, viewers: new Map(), graceTimer: null,
          bytesThisSecond: 0, live: false, serverMirror: '',
        }
        phones.set(input.cardId, phone)
      } else {
        // the newest connect's token is the one the server still honours
        phone.token = input.cardToken
      }
      const viewer: Viewer = { id: nextViewerId++, tabId, decoder, control, audio: input.audio, primed: false, mirror: [] }
      phone.viewers.set(viewer.id, viewer)
      viewers.set(viewer.id, { viewer, phone })
      const owner = phone
      control.onmessage = (event) => onTabMessage(owner, viewer, event.data)
      post(control, { t: 'status', state: phone.live ? 'live' : 'opening' })
      if (phone.state === 'open') post(control, { t: 'preset', preset: phone.preset })
      syncAudio(phone)
      settlePhone(phone)
      return viewer.id
    },
    close: removeViewer,
    setVisible(tabId, visible) {
      for (const phone of [...phones.values()]) {
        if (![...phone.viewers.values()].some((v) => v.tabId === tabId)) continue
        if (!visible) {
          for (const v of phone.viewers.values()) {
            if (v.tabId !== tabId) continue
            v.primed = false
            post(v.decoder, { t: 'pause' })
          }
        }
        settlePhone(phone)
      }
      for (const wall of walls.values()) {
        if (wall.tabId !== tabId) continue
        // shown again: every tile from the cache at once
        if (visible) for (const cardId of wall.want) replay(wall, thumbOf(cardId))
        for (const cardId of wall.want) settleThumb(thumbOf(cardId))
      }
      settleSocket()
    },
    releaseTab(tabId) {
      for (const [id, entry] of [...viewers]) if (entry.viewer.tabId === tabId) removeViewer(id)
      for (const wall of [...walls.values()]) if (wall.tabId === tabId) detachWall(wall.id)
    },
    attachWall(tabId, port) {
      const wall: Wall = { id: nextWallId++, tabId, port, want: new Set() }
      walls.set(wall.id, wall)
      port.onmessage = (event) => onWallMessage(wall, event.data)
      return wall.id
    },
    detachWall,
    stats: () => ({
      socketsOpened, phonesOpen: [...phones.values()].filter((p) => p.state !== 'idle').length, socketOpen: socketUp,
      thumbsOpen: [...thumbs.values()].filter((t) => t.state === 'open').length,
    }),
    dispose() {
      disposed = true
      timers.clearTimeout(reconnectTimer)
      timers.clearTimeout(socketGraceTimer)
      for (const phone of phones.values()) timers.clearTimeout(phone.graceTimer)
      for (const thumb of thumbs.values()) {
        timers.clearTimeout(thumb.graceTimer)
        timers.clearTimeout(thumb.retryTimer)
      }
      shutSocket()
    },
  }
}

/** The browser's WebSocket, binary as Uint8Array. */
export const openBrowserStreamSocket: OpenStreamSocket = (url, handlers) => {
  let down = false
  const goDown = () => {
    if (down) return
    down = true
    handlers.onDown()
  }
  let ws: WebSocket
  try {
    ws = new WebSocket(url)
  } catch {
    queueMicrotask(goDown)
    return { send: () => {}, close: () => {} }
  }
  ws.binaryType = 'arraybuffer'
  ws.onopen = () => handlers.onOpen()
  ws.onmessage = (ev) => handlers.onMessage(typeof ev.data === 'string' ? ev.data : new Uint8Array(ev.data as ArrayBuffer))
  ws.onerror = () => {}
  ws.onclose = goDown
  return {
    send: (data) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(data)
    },
    close: () => {
      down = true
      ws.close()
    },
  }
}

export const browserTimers: StreamTimers = {
  now: () => Date.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (f, ms) => setInterval(f, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
}
