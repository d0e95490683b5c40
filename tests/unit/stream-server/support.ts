// Helpers of the phone-stream tests: a stream server of our own on 127.0.0.1:0 over a test server's database, a client
// socket that records what arrives (waiting on messages, never on guessed sleeps), scrcpy control messages as the
// browser builds them, and an H.264 decoder (node-av) that turns a card's video bytes into luma planes.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AndroidMotionEventAction, ScrcpyControlMessageSerializer, ScrcpyOptionsLatest } from '@yume-chan/scrcpy'
import { AV_CODEC_ID_H264, AVERROR_EAGAIN } from 'node-av/constants'
import { Codec, CodecContext, Frame, Packet } from 'node-av/lib'
import WebSocket from 'ws'
import type { Kysely } from 'kysely'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import type { ConnectReady } from '../../../worker/protocol/devices.ts'
import { readMarker } from '../../../worker/protocol/phone-screen.ts'
import {
  decodeChannelFrame, encodeChannelFrame, readMediaPacketHeader, STREAM_KIND, STREAM_PATH, type StreamClientMessage, type StreamServerMessage,
  VIDEO_META_BYTES,
} from '../../../worker/protocol/stream.ts'
import { makeClock, type DeviceClock } from '../../../server/devices/clock.ts'
import { createStreamServer, type LocalStreamServer, type StreamServerOptions } from '../../../server/devices/sim/stream-server.ts'
import { devicesDb } from '../../../server/devices/tables.ts'
import { api } from '../server/helpers.ts'

export const serializer = new ScrcpyControlMessageSerializer(new ScrcpyOptionsLatest({}))

export const touch = (action: AndroidMotionEventAction, x: number, y: number, width: number, height: number, pointerId = 1n): Uint8Array =>
  serializer.injectTouch({ action, pointerId, pointerX: x, pointerY: y, videoWidth: width, videoHeight: height, pressure: 1, actionButton: 0, buttons: 0 }) as Uint8Array

export interface OwnStreamServer {
  readonly stream: LocalStreamServer
  readonly url: string
  close(): Promise<void>
}

/** A stream server of our own over `db`, on its own HTTP server (with its own device clock when given: tests move time). */
export const startStreamServer = async (db: Kysely<any>, options: StreamServerOptions = {}, clock: DeviceClock = makeClock()): Promise<OwnStreamServer> => {
  const stream = createStreamServer(devicesDb(db), clock, { releaseGraceMs: 200, ...options })
  const server: Server = createServer((_req, res) => res.writeHead(404).end())
  server.on('upgrade', (request, socket, head) => {
    if (!stream.handleUpgrade(request, socket, head)) socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    stream,
    url,
    async close() {
      await stream.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export const connectCard = async (base: string, token: string, userCardId: number): Promise<ConnectReady> => {
  const r = await api<ConnectReady>(base, 'POST', catalogue.connect.path, { token, body: { userCardId } })
  if (r.body.status !== 0) throw new Error(`connect failed: ${r.text}`)
  return r.body.data
}

/** The bytes one card got on one channel kind. */
export interface CardChannel {
  readonly payloads: Uint8Array[]
}

export class StreamClient {
  readonly ws: WebSocket
  readonly texts: StreamServerMessage[] = []
  readonly channels = new Map<string, Uint8Array[]>()
  closeCode: number | null = null
  private waiters: Array<() => void> = []

  constructor(base: string) {
    this.ws = new WebSocket(`${base.replace(/^http/, 'ws')}${STREAM_PATH}`, { perMessageDeflate: false })
    this.ws.binaryType = 'nodebuffer'
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const frame = decodeChannelFrame(new Uint8Array(data as Buffer))
        if (frame) {
          const key = `${frame.kind}:${frame.cardId}`
          const list = this.channels.get(key) ?? []
          list.push(frame.payload)
          this.channels.set(key, list)
        }
      } else this.texts.push(JSON.parse(data.toString()) as StreamServerMessage)
      this.notify()
    })
    this.ws.on('close', (code) => {
      this.closeCode = code
      this.notify()
    })
    this.ws.on('error', () => this.notify())
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w()
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ws.readyState === WebSocket.OPEN) return resolve()
      this.ws.once('open', () => resolve())
      this.ws.once('close', (code) => reject(new Error(`closed ${code}`)))
    })
  }

  send(message: StreamClientMessage): void {
    this.ws.send(JSON.stringify(message))
  }

  control(cardId: number, bytes: Uint8Array): void {
    this.ws.send(encodeChannelFrame(STREAM_KIND.control, cardId, bytes))
  }

  video(cardId: number): Uint8Array[] {
    return this.channels.get(`${STREAM_KIND.video}:${cardId}`) ?? []
  }

  controlIn(cardId: number): Uint8Array[] {
    return this.channels.get(`${STREAM_KIND.control}:${cardId}`) ?? []
  }

  /** resolves when `predicate` holds, checked after each message (fails after `timeoutMs`: only a hung test waits that long). */
  async until(predicate: () => boolean, what = 'a message', timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!predicate()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`timed out waiting for ${what}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  closedReason(cardId: number): string | null {
    const m = this.texts.find((t) => t.op === 'closed' && t.cardId === cardId)
    return m && m.op === 'closed' ? m.reason : null
  }

  close(): void {
    this.ws.close()
  }
}

export interface DecodedFrame {
  readonly width: number
  readonly height: number
  readonly luma: Uint8Array
  readonly marker: number
}

/** Decodes a card's video payloads in order: metadata, config and media packets (node-av's h264 decoder). */
export class VideoReader {
  private ctx: CodecContext | null = null
  private consumed = 0
  private config: Uint8Array | null = null
  readonly frames: DecodedFrame[] = []
  readonly metas: Array<{ width: number; height: number }> = []
  /** the kinds of payload seen, in order: M(eta), C(onfig), K(eyframe), P (delta). */
  readonly kinds: string[] = []

  private open(): void {
    this.ctx?.freeContext()
    const codec = Codec.findDecoder(AV_CODEC_ID_H264)!
    const ctx = new CodecContext()
    ctx.allocContext3(codec)
    if (ctx.open2Sync(codec, null) < 0) throw new Error('h264 decoder')
    this.ctx = ctx
  }

  /** decodes what arrived since the last call. */
  feed(payloads: ReadonlyArray<Uint8Array>): void {
    for (; this.consumed < payloads.length; this.consumed++) {
      const p = payloads[this.consumed]!
      if (p.byteLength === VIDEO_META_BYTES) {
        const view = new DataView(p.buffer, p.byteOffset, p.byteLength)
        this.metas.push({ width: view.getUint32(4, false), height: view.getUint32(8, false) })
        this.kinds.push('M')
        this.open()
        continue
      }
      const header = readMediaPacketHeader(p)
      if (!header) throw new Error('a video payload that is neither metadata nor a packet')
      this.kinds.push(header.config ? 'C' : header.keyframe ? 'K' : 'P')
      // as scrcpy's own client does: a config packet (SPS/PPS alone decodes to nothing) goes in front of the next one
      if (header.config) {
        this.config = p.subarray(12)
        continue
      }
      const packet = new Packet()
      packet.alloc()
      packet.data = this.config ? Buffer.concat([this.config, p.subarray(12)]) : Buffer.from(p.subarray(12))
      this.config = null
      const sent = this.ctx!.sendPacketSync(packet)
      if (sent < 0) throw new Error(`decode failed (${sent}) after ${this.kinds.join('')}`)
      packet.free()
      for (;;) {
        const frame = new Frame()
        frame.alloc()
        const ret = this.ctx!.receiveFrameSync(frame)
        if (ret === AVERROR_EAGAIN || ret < 0) {
          frame.free()
          break
        }
        const { width, height } = frame
        const stride = frame.linesize[0]!
        const plane = frame.data![0]!
        const luma = new Uint8Array(width * height)
        for (let y = 0; y < height; y++) luma.set(plane.subarray(y * stride, y * stride + width), y * width)
        frame.free()
        this.frames.push({ width, height, luma, marker: readMarker((x, yy) => luma[yy * width + x]!, width, height) })
      }
    }
  }

  last(): DecodedFrame | null {
    return this.frames[this.frames.length - 1] ?? null
  }

  close(): void {
    this.ctx?.freeContext()
    this.ctx = null
  }
}

/** mean absolute luma difference over a rectangle. */
export const lumaDiff = (a: DecodedFrame, b: DecodedFrame, rect: { x: number; y: number; width: number; height: number }): number => {
  let sum = 0
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    for (let x = rect.x; x < rect.x + rect.width; x++) sum += Math.abs(a.luma[y * a.width + x]! - b.luma[y * b.width + x]!)
  }
  return sum / (rect.width * rect.height)
}

/** the device id of a card (the stream server's phones are keyed by device). */
export const deviceIdOf = async (db: Parameters<typeof devicesDb>[0], userCardId: number): Promise<number> =>
  (await devicesDb(db).selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirstOrThrow()).id
