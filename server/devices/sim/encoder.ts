// One H.264 encoder of a simulated phone's screen (node-av's libx264): RGBA frames in, Annex-B packets out, as scrcpy's
// video stream carries them: a config packet (SPS+PPS) before the first keyframe, then keyframe / delta packets.
// Baseline profile, ultrafast + zerolatency, no B-frames, a keyframe every `fps` frames (about one second while the
// screen moves) and on request. A new size (rotation, preset) needs a new encoder.
import {
  AV_CODEC_ID_H264, AV_LOG_ERROR, AV_PICTURE_TYPE_I, AV_PICTURE_TYPE_NONE, AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV420P, AVERROR_EAGAIN, AVERROR_EOF,
  FF_ENCODER_LIBX264, SWS_BILINEAR,
} from 'node-av/constants'
import { Codec, CodecContext, Frame, Log, Packet, Rational, SoftwareScaleContext } from 'node-av/lib'

export interface EncoderSettings {
  readonly width: number
  readonly height: number
  readonly fps: number
  readonly bitrate: number
}

export interface EncodedPacket {
  readonly config: boolean
  readonly keyframe: boolean
  /** microseconds (0 for a config packet). */
  readonly pts: bigint
  readonly data: Uint8Array
}

export interface PhoneEncoder {
  readonly settings: EncoderSettings
  /** SPS+PPS of the stream (Annex-B), known after the first keyframe. */
  config(): Uint8Array | null
  /**
   * Encodes one RGBA frame (width*height*4 bytes), blocking: it runs on a screen thread (screen-pool.ts), never on the
   * server's event loop. The first keyframe is preceded by its config packet.
   */
  encode(rgba: Uint8Array, ptsUs: bigint, forceKeyframe: boolean): EncodedPacket[]
  close(): void
}

/** Encoders alive in this process (the tests check that viewers of one phone share one). */
let live = 0
export const liveEncoders = (): number => live

const NAL_SPS = 7
const NAL_PPS = 8

/** The NAL units of an Annex-B byte stream, each with its start code. */
export const splitAnnexB = (data: Uint8Array): Uint8Array[] => {
  const starts: number[] = []
  for (let i = 0; i + 3 <= data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && (data[i + 2] === 1 || (data[i + 2] === 0 && data[i + 3] === 1))) {
      starts.push(i)
      i += data[i + 2] === 1 ? 2 : 3
    }
  }
  return starts.map((s, k) => data.subarray(s, starts[k + 1] ?? data.length))
}

const nalType = (unit: Uint8Array): number => {
  const offset = unit[2] === 1 ? 3 : 4
  return (unit[offset] ?? 0) & 0x1f
}

/** SPS and PPS units of a packet, concatenated (empty when it has none). */
export const parameterSets = (data: Uint8Array): Uint8Array => {
  const units = splitAnnexB(data).filter((u) => nalType(u) === NAL_SPS || nalType(u) === NAL_PPS)
  const out = new Uint8Array(units.reduce((n, u) => n + u.length, 0))
  let at = 0
  for (const u of units) {
    out.set(u, at)
    at += u.length
  }
  return out
}

const check = (ret: number, what: string): void => {
  if (ret < 0) throw new Error(`${what} failed (${ret})`)
}

let quiet = false

export const createPhoneEncoder = (settings: EncoderSettings): PhoneEncoder => {
  if (!quiet) {
    Log.setLevel(AV_LOG_ERROR) // libx264 prints its settings and statistics at info level
    quiet = true
  }
  const { width, height, fps, bitrate } = settings
  const codec = Codec.findEncoderByName(FF_ENCODER_LIBX264)
  if (!codec) throw new Error('libx264 is not available in node-av')
  const ctx = new CodecContext()
  ctx.allocContext3(codec)
  ctx.codecId = AV_CODEC_ID_H264
  ctx.width = width
  ctx.height = height
  ctx.pixelFormat = AV_PIX_FMT_YUV420P
  ctx.timeBase = new Rational(1, 1_000_000)
  ctx.framerate = new Rational(fps, 1)
  ctx.bitRate = BigInt(bitrate)
  ctx.gopSize = fps
  ctx.maxBFrames = 0
  ctx.threadCount = 1
  // set on the context, not passed to open2 as a Dictionary: node-av 6.1 frees such a dictionary a second time when
  // the process exits (open2 consumed it), which crashes the process (SIGSEGV / SIGABRT at exit)
  const options: Record<string, string> = {
    preset: 'ultrafast',
    tune: 'zerolatency',
    profile: 'baseline',
    'forced-idr': '1',
    // SPS/PPS in-band before every keyframe (Annex-B), a bounded rate so keyframes do not burst far past it
    'x264-params': `keyint=${fps}:min-keyint=${fps}:scenecut=0:bframes=0:repeat-headers=1:vbv-maxrate=${Math.round(bitrate / 1000)}:vbv-bufsize=${Math.round(bitrate / 1000)}`,
  }
  for (const [name, value] of Object.entries(options)) check(ctx.setOption(name, value), `libx264 option ${name}`)
  check(ctx.open2Sync(codec, null), 'open libx264')

  const src = new Frame()
  src.alloc()
  src.width = width
  src.height = height
  src.format = AV_PIX_FMT_RGBA
  check(src.getBuffer(32), 'rgba frame buffer')
  const dst = new Frame()
  dst.alloc()
  dst.width = width
  dst.height = height
  dst.format = AV_PIX_FMT_YUV420P
  check(dst.getBuffer(32), 'yuv frame buffer')
  const sws = new SoftwareScaleContext()
  sws.getContext(width, height, AV_PIX_FMT_RGBA, width, height, AV_PIX_FMT_YUV420P, SWS_BILINEAR)
  const packet = new Packet()
  packet.alloc()

  let config: Uint8Array | null = null
  let closed = false
  live += 1

  return {
    settings,
    config: () => config,
    encode: encodeOne,
    close() {
      if (closed) return
      closed = true
      live -= 1
      packet.free()
      src.free()
      dst.free()
      sws.freeContext()
      ctx.freeContext()
    },
  }

  function encodeOne(rgba: Uint8Array, ptsUs: bigint, forceKeyframe: boolean): EncodedPacket[] {
    if (closed) return []
    check(src.makeWritable(), 'rgba writable')
    check(src.fromBuffer(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength)), 'rgba copy')
    check(dst.makeWritable(), 'yuv writable')
    check(sws.scaleFrameSync(dst, src), 'rgba to yuv420p')
    dst.pts = ptsUs
    dst.pictType = forceKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
    const out: EncodedPacket[] = []
    let ret = ctx.sendFrameSync(dst)
    if (ret < 0 && ret !== AVERROR_EAGAIN) check(ret, 'send frame')
    for (;;) {
      ret = ctx.receivePacketSync(packet)
      if (ret === AVERROR_EAGAIN || ret === AVERROR_EOF) break
      check(ret, 'receive packet')
      const data = new Uint8Array(packet.data!)
      const keyframe = packet.isKeyframe
      if (keyframe) {
        const sets = parameterSets(data)
        if (sets.length > 0 && (config === null || !sameBytes(sets, config))) {
          config = sets
          out.push({ config: true, keyframe: false, pts: 0n, data: sets })
        }
      }
      out.push({ config: false, keyframe, pts: packet.pts < 0n ? ptsUs : packet.pts, data })
      packet.unref()
    }
    return out
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((v, i) => v === b[i])
