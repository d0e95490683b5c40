// The phone's sound (server/devices/sim/audio.ts through stream-server.ts): while its 音乐 app plays, a socket that
// asked for audio gets scrcpy's audio stream on STREAM_KIND.audio (the Opus metadata, a config packet with the
// OpusHead, then 20 ms Opus packets that decode to the melody); a socket that did not ask gets none; paused, nothing
// is sent; a socket turning audio on mid-stream gets the metadata and config first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AV_CHANNEL_ORDER_NATIVE, AV_CH_LAYOUT_STEREO, AV_CODEC_ID_OPUS, AVERROR_EAGAIN } from 'node-av/constants'
import { Codec, CodecContext, Frame, Packet } from 'node-av/lib'
import { AUDIO_META_BYTES, readMediaPacketHeader, SCRCPY_CODEC, STREAM_KIND } from '../../../worker/protocol/stream.ts'
import { appIconCenter, initialPhone, playButton } from '../../../server/devices/sim/phone.ts'
import { loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, startStreamServer, StreamClient, touch, VideoReader, type OwnStreamServer, deviceIdOf } from './support.ts'

const t = useTestServer()
let own: OwnStreamServer
let demo: { token: string }

beforeAll(async () => {
  own = await startStreamServer(t.server.db)
  demo = await loginToken(t.base, '13800138000')
})
afterAll(() => own?.close())

const CARD = 880001

const deviceOf = (userCardId: number): Promise<number> => deviceIdOf(t.server.db, userCardId)

const audioOf = (client: StreamClient, cardId: number): Uint8Array[] => client.channels.get(`${STREAM_KIND.audio}:${cardId}`) ?? []

/** a socket with the card open and its first picture decoded. */
const view = async (audio: boolean) => {
  const ready = await connectCard(t.base, demo.token, CARD)
  const client = new StreamClient(own.url)
  await client.opened()
  client.send({ op: 'open', cardId: CARD, cardToken: ready.cardToken, preset: 'smooth', audio })
  const reader = new VideoReader()
  await client.until(() => {
    reader.feed(client.video(CARD))
    return reader.frames.length > 0
  }, 'the first picture')
  return { client, reader }
}

/** a tap at a logical point, scaled to the picture the socket has. */
const tap = (v: Awaited<ReturnType<typeof view>>, x: number, y: number) => {
  const { width, height } = v.reader.metas.at(-1)!
  const vx = Math.round((x * width) / 720)
  const vy = Math.round((y * height) / 1280)
  v.client.control(CARD, touch(0, vx, vy, width, height))
  v.client.control(CARD, touch(1, vx, vy, width, height))
}

/** Decodes Opus packets (node-av's decoder, configured from the OpusHead) into the peak absolute sample value. */
const decodeOpus = (head: Uint8Array, packets: ReadonlyArray<Uint8Array>): { frames: number; samples: number; peak: number } => {
  const codec = Codec.findDecoder(AV_CODEC_ID_OPUS)!
  const ctx = new CodecContext()
  ctx.allocContext3(codec)
  ctx.sampleRate = 48_000
  ctx.channelLayout = { nbChannels: head[9]!, order: AV_CHANNEL_ORDER_NATIVE, mask: AV_CH_LAYOUT_STEREO }
  ctx.extraData = Buffer.from(head)
  if (ctx.open2Sync(codec, null) < 0) throw new Error('opus decoder')
  let frames = 0
  let samples = 0
  let peak = 0
  const packet = new Packet()
  packet.alloc()
  const frame = new Frame()
  frame.alloc()
  for (const data of packets) {
    packet.data = Buffer.from(data)
    const sent = ctx.sendPacketSync(packet)
    if (sent < 0) throw new Error(`opus decode failed (${sent})`)
    for (;;) {
      const ret = ctx.receiveFrameSync(frame)
      if (ret === AVERROR_EAGAIN || ret < 0) break
      frames += 1
      samples += frame.nbSamples
      // planar float: channel 0's plane
      const plane = frame.data![0]!
      const floats = new Float32Array(plane.buffer, plane.byteOffset, frame.nbSamples)
      for (const v of floats) peak = Math.max(peak, Math.abs(v))
      frame.unref()
    }
  }
  frame.free()
  packet.free()
  ctx.freeContext()
  return { frames, samples, peak }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('the phone\'s sound', () => {
  it('plays the 音乐 app as Opus to the sockets that want audio: metadata, OpusHead config, then packets that decode', async () => {
    const listener = await view(true)
    const quiet = await view(false)
    const deviceId = await deviceOf(CARD)

    // nothing plays yet: no audio at all
    await sleep(200)
    expect(audioOf(listener.client, CARD)).toHaveLength(0)

    const icon = appIconCenter(initialPhone, 'music')!
    tap(listener, icon.x, icon.y)
    await listener.client.until(() => own.stream.phoneState(deviceId)?.screen === 'music', 'the music app')
    const button = playButton('portrait')
    tap(listener, button.x, button.y)
    await listener.client.until(() => audioOf(listener.client, CARD).length >= 2 + 25, 'half a second of sound')
    expect(own.stream.phoneState(deviceId)!.music.playing).toBe(true)

    const [meta, config, ...packets] = audioOf(listener.client, CARD)
    expect(meta!.byteLength).toBe(AUDIO_META_BYTES)
    expect(new DataView(meta!.buffer, meta!.byteOffset).getUint32(0, false)).toBe(SCRCPY_CODEC.opus)
    expect(readMediaPacketHeader(config!)?.config).toBe(true)
    const head = config!.subarray(12)
    expect(new TextDecoder().decode(head.subarray(0, 8))).toBe('OpusHead')
    expect(head[8]).toBe(1)
    expect(new DataView(head.buffer, head.byteOffset + 12).getUint32(0, true)).toBe(48_000)
    const headers = packets.map((p) => readMediaPacketHeader(p)!)
    expect(headers.every((h) => h !== null && !h.config)).toBe(true)
    // 20 ms apart
    expect(Number(headers[1]!.pts - headers[0]!.pts)).toBe(20_000)
    const decoded = decodeOpus(head, packets.map((p) => p.subarray(12)))
    expect(decoded.frames).toBe(packets.length)
    // 960 samples a packet, less the encoder's pre-skip the OpusHead announces (the decoder drops it)
    const preSkip = new DataView(head.buffer, head.byteOffset + 10).getUint16(0, true)
    expect(decoded.samples).toBe(packets.length * 960 - preSkip)
    expect(decoded.peak).toBeGreaterThan(0.05)

    // the socket that did not ask for sound got none; turning it on mid-stream sends the metadata and config first
    expect(audioOf(quiet.client, CARD)).toHaveLength(0)
    quiet.client.send({ op: 'audio', cardId: CARD, on: true })
    await quiet.client.until(() => audioOf(quiet.client, CARD).length >= 5, 'sound after turning it on')
    const [qMeta, qConfig, ...qPackets] = audioOf(quiet.client, CARD)
    expect(qMeta!.byteLength).toBe(AUDIO_META_BYTES)
    expect(readMediaPacketHeader(qConfig!)?.config).toBe(true)
    expect(decodeOpus(qConfig!.subarray(12), qPackets.map((p) => p.subarray(12))).peak).toBeGreaterThan(0.05)

    // off again: nothing more for it
    quiet.client.send({ op: 'audio', cardId: CARD, on: false })
    await sleep(100)
    const offAt = audioOf(quiet.client, CARD).length
    await sleep(200)
    expect(audioOf(quiet.client, CARD).length).toBe(offAt)

    // paused: nothing is sent
    tap(listener, button.x, button.y)
    await listener.client.until(() => !own.stream.phoneState(deviceId)!.music.playing, 'the pause')
    await sleep(100)
    const pausedAt = audioOf(listener.client, CARD).length
    await sleep(300)
    expect(audioOf(listener.client, CARD).length).toBe(pausedAt)

    // playing again: packets only (the socket has had the metadata and config)
    tap(listener, button.x, button.y)
    await listener.client.until(() => audioOf(listener.client, CARD).length >= pausedAt + 5, 'sound after resuming')
    const resumed = audioOf(listener.client, CARD).slice(pausedAt)
    expect(resumed.every((p) => readMediaPacketHeader(p)?.config === false)).toBe(true)

    for (const v of [listener, quiet]) {
      v.client.close()
      v.reader.close()
    }
  })
})
