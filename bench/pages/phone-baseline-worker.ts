// The tap-to-pixels baseline's socket owner (bench part 9): a dedicated worker of the page that opens the phone-stream
// socket ITSELF (no core), sends the same `open`, parses channel frames and feeds the REAL product decoder worker
// through a MessagePort exactly as the core's StreamHub does ({t:'restart'} then {t:'video', bytes}), so the only
// difference from the product path is the core's hop (tab -> SharedWorker -> socket and back).
import type { CoreToDecoder } from '../../worker/protocol/stream-ports.ts'
import {
  decodeChannelFrame, encodeChannelFrame, readMediaPacketHeader, SCRCPY_CODEC, STREAM_KIND, VIDEO_META_BYTES,
  type StreamClientMessage, type StreamPreset,
} from '../../worker/protocol/stream.ts'

export type BaselineSocketIn =
  | { readonly t: 'init'; readonly url: string; readonly cardId: number; readonly cardToken: string; readonly preset: StreamPreset; readonly decoder: MessagePort }
  | { readonly t: 'control'; readonly bytes: Uint8Array }
  | { readonly t: 'preset'; readonly preset: StreamPreset }
  | { readonly t: 'close' }
export type BaselineSocketOut =
  | { readonly t: 'opened'; readonly preset: StreamPreset }
  | { readonly t: 'closed'; readonly reason: string }
  | { readonly t: 'down' }

interface Scope {
  postMessage(message: BaselineSocketOut): void
  onmessage: ((event: MessageEvent<BaselineSocketIn>) => void) | null
}
declare const self: Scope

let ws: WebSocket | null = null
let cardId = 0
let decoder: MessagePort | null = null
let meta: Uint8Array | null = null
let config: Uint8Array | null = null
let primed = false

const toDecoder = (message: CoreToDecoder) => decoder?.postMessage(message)
const send = (data: string | Uint8Array) => {
  if (ws?.readyState === WebSocket.OPEN) ws.send(data)
}

const isMeta = (payload: Uint8Array) =>
  payload.byteLength === VIDEO_META_BYTES && new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, false) === SCRCPY_CODEC.h264

/** the hub's priming, without its cache for other viewers: a decoder (re)starts at a keyframe after meta and config. */
const onVideo = (payload: Uint8Array) => {
  if (isMeta(payload)) {
    meta = payload
    primed = false
    return
  }
  const header = readMediaPacketHeader(payload)
  if (header === null) return
  if (header.config) {
    config = payload
    primed = false
    return
  }
  if (!primed) {
    if (!header.keyframe || meta === null || config === null) return
    primed = true
    toDecoder({ t: 'restart' })
    toDecoder({ t: 'video', bytes: meta })
    toDecoder({ t: 'video', bytes: config })
  }
  toDecoder({ t: 'video', bytes: payload })
}

const open = (url: string, cardToken: string, preset: StreamPreset) => {
  ws = new WebSocket(url)
  ws.binaryType = 'arraybuffer'
  ws.onopen = () => send(JSON.stringify({ op: 'open', cardId, cardToken, preset, audio: false } satisfies StreamClientMessage))
  ws.onmessage = (event) => {
    if (typeof event.data === 'string') {
      const message = JSON.parse(event.data) as { op: string; cardId?: number; preset?: StreamPreset; reason?: string }
      if (message.cardId !== cardId) return
      if (message.op === 'opened') self.postMessage({ t: 'opened', preset: message.preset! })
      else if (message.op === 'closed') self.postMessage({ t: 'closed', reason: message.reason ?? '?' })
      return
    }
    const frame = decodeChannelFrame(new Uint8Array(event.data as ArrayBuffer))
    if (frame === null || frame.cardId !== cardId || frame.kind !== STREAM_KIND.video) return
    onVideo(frame.payload)
  }
  ws.onclose = () => self.postMessage({ t: 'down' })
}

self.onmessage = (event) => {
  const message = event.data
  switch (message.t) {
    case 'init':
      cardId = message.cardId
      decoder = message.decoder
      return open(message.url, message.cardToken, message.preset)
    case 'control':
      return send(encodeChannelFrame(STREAM_KIND.control, cardId, message.bytes))
    case 'preset':
      return send(JSON.stringify({ op: 'preset', cardId, preset: message.preset } satisfies StreamClientMessage))
    case 'close':
      ws?.close()
      ws = null
  }
}
