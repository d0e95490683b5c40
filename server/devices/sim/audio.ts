// The simulated phone's sound: what its 音乐 app plays (a looping melody of sine notes, 48 kHz stereo) and one Opus
// encoder (node-av's libopus, 20 ms frames) that turns it into scrcpy's audio stream: the codec metadata, a config
// packet carrying the OpusHead identification header, then one packet per 20 ms frame.
import { AV_CHANNEL_ORDER_NATIVE, AV_CH_LAYOUT_STEREO, AV_LOG_ERROR, AV_SAMPLE_FMT_FLT, AVERROR_EAGAIN, AVERROR_EOF, FF_ENCODER_LIBOPUS } from 'node-av/constants'
import { Codec, CodecContext, Frame, Log, Packet, Rational } from 'node-av/lib'

export const AUDIO_SAMPLE_RATE = 48_000
export const AUDIO_CHANNELS = 2
export const AUDIO_FRAME_MS = 20
/** samples per channel in one 20 ms frame. */
export const AUDIO_FRAME_SAMPLES = (AUDIO_SAMPLE_RATE * AUDIO_FRAME_MS) / 1000

// ---- the melody ----

/** semitones from A4 (0 = 440 Hz), null a rest; each note an eighth at 120 bpm. */
const MELODY: ReadonlyArray<number | null> = [
  -9, -9, -2, -2, 0, 0, -2, null, -4, -4, -5, -5, -7, -7, -9, null,
  -2, -2, -4, -4, -5, -5, -7, null, -2, -2, -4, -4, -5, -5, -7, null,
]
const NOTE_SAMPLES = AUDIO_SAMPLE_RATE / 4
const ATTACK = AUDIO_SAMPLE_RATE * 0.01
const freqOf = (semitones: number) => 440 * 2 ** (semitones / 12)

/** `count` stereo samples (interleaved float, -1..1) of the melody from sample `start` on (it loops). */
export const melodySamples = (start: number, count: number): Float32Array => {
  const out = new Float32Array(count * AUDIO_CHANNELS)
  for (let i = 0; i < count; i++) {
    const n = start + i
    const note = MELODY[Math.floor(n / NOTE_SAMPLES) % MELODY.length]
    let v = 0
    if (note !== null && note !== undefined) {
      const at = n % NOTE_SAMPLES
      // a short attack, an exponential decay and a release at the note's end: no clicks between notes
      const envelope = Math.min(1, at / ATTACK) * Math.exp(-at / (NOTE_SAMPLES * 0.6)) * Math.min(1, (NOTE_SAMPLES - at) / ATTACK)
      const t = n / AUDIO_SAMPLE_RATE
      const f = freqOf(note)
      v = 0.3 * envelope * (Math.sin(2 * Math.PI * f * t) + 0.25 * Math.sin(4 * Math.PI * f * t))
    }
    out[i * 2] = v
    out[i * 2 + 1] = v
  }
  return out
}

// ---- the encoder ----

export interface OpusPacket {
  /** microseconds. */
  readonly pts: bigint
  readonly data: Uint8Array
}

export interface MusicEncoder {
  /** the OpusHead identification header (the codec's extradata): scrcpy's config packet for Opus. */
  readonly opusHead: Uint8Array
  /** encodes one 20 ms frame (AUDIO_FRAME_SAMPLES interleaved stereo floats); libopus answers one packet per frame. */
  encode(samples: Float32Array, ptsUs: bigint): OpusPacket[]
  close(): void
}

const check = (ret: number, what: string): void => {
  if (ret < 0) throw new Error(`${what} failed (${ret})`)
}

/** OpusHead (RFC 7845 §5.1) for channel mapping family 0, when the codec gives no extradata. */
export const opusHead = (channels: number, preSkip: number): Uint8Array => {
  const out = new Uint8Array(19)
  out.set(new TextEncoder().encode('OpusHead'))
  const view = new DataView(out.buffer)
  out[8] = 1
  out[9] = channels
  view.setUint16(10, preSkip, true)
  view.setUint32(12, AUDIO_SAMPLE_RATE, true)
  view.setInt16(16, 0, true)
  out[18] = 0
  return out
}

let encoders = 0
/** Opus encoders alive in this process (tests check that one is freed). */
export const liveMusicEncoders = (): number => encoders

export const createMusicEncoder = (): MusicEncoder => {
  Log.setLevel(AV_LOG_ERROR)
  const codec = Codec.findEncoderByName(FF_ENCODER_LIBOPUS)
  if (!codec) throw new Error('libopus is not available in node-av')
  const ctx = new CodecContext()
  ctx.allocContext3(codec)
  ctx.sampleRate = AUDIO_SAMPLE_RATE
  ctx.sampleFormat = AV_SAMPLE_FMT_FLT
  ctx.channelLayout = { nbChannels: AUDIO_CHANNELS, order: AV_CHANNEL_ORDER_NATIVE, mask: AV_CH_LAYOUT_STEREO }
  ctx.timeBase = new Rational(1, AUDIO_SAMPLE_RATE)
  ctx.bitRate = 64_000n
  // options on the context, not a Dictionary passed to open2 (see encoder.ts: node-av frees it twice at exit)
  check(ctx.setOption('application', 'audio'), 'libopus option application')
  check(ctx.setOption('frame_duration', String(AUDIO_FRAME_MS)), 'libopus option frame_duration')
  check(ctx.open2Sync(codec, null), 'open libopus')
  if (ctx.frameSize !== AUDIO_FRAME_SAMPLES) {
    ctx.freeContext()
    throw new Error(`libopus frame size ${ctx.frameSize}, expected ${AUDIO_FRAME_SAMPLES}`)
  }
  const extradata = ctx.extraData
  const head = extradata && extradata.length >= 19 ? new Uint8Array(extradata) : opusHead(AUDIO_CHANNELS, 312)

  const frame = new Frame()
  frame.alloc()
  frame.nbSamples = AUDIO_FRAME_SAMPLES
  frame.format = AV_SAMPLE_FMT_FLT
  frame.sampleRate = AUDIO_SAMPLE_RATE
  frame.channelLayout = { nbChannels: AUDIO_CHANNELS, order: AV_CHANNEL_ORDER_NATIVE, mask: AV_CH_LAYOUT_STEREO }
  check(frame.getBuffer(0), 'audio frame buffer')
  const packet = new Packet()
  packet.alloc()
  let samplesIn = 0n
  let closed = false
  encoders += 1

  return {
    opusHead: head,
    encode(samples, ptsUs) {
      if (closed) return []
      check(frame.makeWritable(), 'audio frame writable')
      check(frame.fromBuffer(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)), 'audio frame copy')
      frame.pts = samplesIn
      samplesIn += BigInt(AUDIO_FRAME_SAMPLES)
      const sent = ctx.sendFrameSync(frame)
      if (sent < 0 && sent !== AVERROR_EAGAIN) check(sent, 'send audio frame')
      const out: OpusPacket[] = []
      for (;;) {
        const ret = ctx.receivePacketSync(packet)
        if (ret === AVERROR_EAGAIN || ret === AVERROR_EOF) break
        check(ret, 'receive audio packet')
        // one packet per frame: it carries the frame's time (the encoder's pre-skip is in the OpusHead)
        out.push({ pts: ptsUs, data: new Uint8Array(packet.data!) })
        packet.unref()
      }
      return out
    },
    close() {
      if (closed) return
      closed = true
      encoders -= 1
      packet.free()
      frame.free()
      ctx.freeContext()
    },
  }
}
