// The core's StreamHub against a scripted server socket and a manual clock: one socket for every phone and tab, a
// second tab served from the cache, nothing for hidden tabs, grace closes, reconnects that restart the decoders.
import { describe, expect, it } from 'vitest'
import { hubWithFakes, type FakeSocket } from './stream-hub-support.ts'
import { STREAM_TIMING, type HubPort } from '../../../worker/stream/stream-hub.ts'
import type { CoreToDecoder, CoreToTab } from '../../../worker/protocol/stream-ports.ts'
import {
  encodeAudioMeta, encodeChannelFrame, encodeMediaPacket, encodeVideoMeta, SCRCPY_RESET_VIDEO, STREAM_KIND, type StreamClientMessage,
} from '../../../worker/protocol/stream.ts'

const setup = () => {
  const { clock, sockets, visible, hub } = hubWithFakes()
  const port = <T>() => {
    const got: T[] = []
    const p: HubPort<T> & { got: T[] } = { got, onmessage: null, postMessage: (m) => void got.push(m), close: () => {} }
    return p
  }
  const tab = (tabId: string, cardId = 7, shown = true) => {
    visible.set(tabId, shown)
    const decoder = port<CoreToDecoder>()
    const control = port<CoreToTab>()
    const id = hub.open(tabId, { cardId, cardToken: `token-${cardId}`, preset: 'sd', audio: false }, decoder, control)
    return { id, decoder, control, send: (m: unknown) => control.onmessage?.({ data: m }) }
  }
  const json = (s: FakeSocket) => s.sent.filter((d): d is string => typeof d === 'string').map((d) => JSON.parse(d) as StreamClientMessage)
  const serverSends = (s: FakeSocket, cardId: number) => {
    const video = (payload: Uint8Array) => s.handlers.onMessage(encodeChannelFrame(STREAM_KIND.video, cardId, payload))
    return {
      opened: () => s.handlers.onMessage(JSON.stringify({ op: 'opened', cardId, preset: 'sd' })),
      meta: () => video(encodeVideoMeta(540, 960)),
      config: () => video(encodeMediaPacket({ config: true, keyframe: false, pts: 0n, data: Uint8Array.of(0, 0, 0, 1, 0x67) })),
      key: (pts: bigint) => video(encodeMediaPacket({ config: false, keyframe: true, pts, data: Uint8Array.of(0, 0, 0, 1, 0x65) })),
      delta: (pts: bigint) => video(encodeMediaPacket({ config: false, keyframe: false, pts, data: Uint8Array.of(0, 0, 0, 1, 0x41) })),
      closed: (reason: string) => s.handlers.onMessage(JSON.stringify({ op: 'closed', cardId, reason })),
    }
  }
  const videoCount = (d: { got: CoreToDecoder[] }) => d.got.filter((m) => m.t === 'video').length
  return { hub, clock, sockets, visible, tab, json, serverSends, videoCount }
}

const startStream = (env: ReturnType<typeof setup>, cardId = 7) => {
  const socket = env.sockets.at(-1)!
  socket.handlers.onOpen()
  const server = env.serverSends(socket, cardId)
  server.opened()
  server.meta()
  server.config()
  server.key(1000n)
  server.delta(2000n)
  return { socket, server }
}

describe('the core stream hub', () => {
  it('opens one socket for a visible viewer and subscribes the phone with its card token', () => {
    const env = setup()
    env.tab('tab-a')
    expect(env.sockets).toHaveLength(1)
    env.sockets[0]!.handlers.onOpen()
    expect(env.json(env.sockets[0]!)).toEqual([{ op: 'open', cardId: 7, cardToken: 'token-7', preset: 'sd', audio: false }])
  })

  it('a viewer gets restart, metadata, config and the packets since the keyframe, then live packets', () => {
    const env = setup()
    const a = env.tab('tab-a')
    startStream(env)
    expect(a.decoder.got.map((m) => m.t)).toEqual(['restart', 'video', 'video', 'video', 'video'])
    expect(a.control.got.some((m) => m.t === 'status' && m.state === 'live')).toBe(true)
  })

  it('a second tab on the same phone joins from the cache: no new socket, no new server stream', () => {
    const env = setup()
    env.tab('tab-a')
    const { socket } = startStream(env)
    const b = env.tab('tab-b')
    expect(env.sockets).toHaveLength(1)
    expect(env.json(socket).filter((m) => m.op === 'open')).toHaveLength(1)
    // restart + meta + config + keyframe + delta, decodable at once
    expect(b.decoder.got.map((m) => m.t)).toEqual(['restart', 'video', 'video', 'video', 'video'])
  })

  it('a hidden tab receives nothing, and when shown again it restarts from the cached keyframe', () => {
    const env = setup()
    const a = env.tab('tab-a')
    const b = env.tab('tab-b', 7, false)
    const { server } = startStream(env)
    expect(env.videoCount(b.decoder)).toBe(0)
    server.delta(3000n)
    expect(env.videoCount(b.decoder)).toBe(0)
    env.visible.set('tab-b', true)
    env.hub.setVisible('tab-b', true)
    expect(b.decoder.got[0]).toEqual({ t: 'restart' })
    // meta, config, keyframe, two deltas
    expect(env.videoCount(b.decoder)).toBe(5)
    env.visible.set('tab-a', false)
    env.hub.setVisible('tab-a', false)
    expect(a.decoder.got.at(-1)).toEqual({ t: 'pause' })
    const before = env.videoCount(a.decoder)
    server.delta(4000n)
    expect(env.videoCount(a.decoder)).toBe(before)
  })

  it('closes a phone nobody visible views after the grace period, and the socket after its own', () => {
    const env = setup()
    const a = env.tab('tab-a')
    const { socket } = startStream(env)
    env.hub.close(a.id)
    expect(env.json(socket).some((m) => m.op === 'close')).toBe(true)
    expect(socket.closed).toBe(false)
    env.clock.advance(STREAM_TIMING.socketGraceMs + 1)
    expect(socket.closed).toBe(true)
  })

  it('a tab hidden for longer than the grace closes the phone on the server; shown again it is opened anew', () => {
    const env = setup()
    env.tab('tab-a')
    const { socket } = startStream(env)
    env.visible.set('tab-a', false)
    env.hub.setVisible('tab-a', false)
    env.clock.advance(STREAM_TIMING.phoneGraceMs + 1)
    expect(env.json(socket).filter((m) => m.op === 'close')).toHaveLength(1)
    env.visible.set('tab-a', true)
    env.hub.setVisible('tab-a', true)
    expect(env.json(socket).filter((m) => m.op === 'open')).toHaveLength(2)
  })

  it('multiplexes several phones over the one socket', () => {
    const env = setup()
    const a = env.tab('tab-a', 7)
    const b = env.tab('tab-a', 8)
    expect(env.sockets).toHaveLength(1)
    const socket = env.sockets[0]!
    socket.handlers.onOpen()
    expect(env.json(socket).filter((m) => m.op === 'open').map((m) => (m as { cardId: number }).cardId).sort()).toEqual([7, 8])
    const s8 = env.serverSends(socket, 8)
    s8.opened(); s8.meta(); s8.config(); s8.key(1n)
    expect(env.videoCount(b.decoder)).toBe(3)
    expect(env.videoCount(a.decoder)).toBe(0)
  })

  it('a dropped socket tells viewers it is reconnecting, reconnects at once, reopens the phones and restarts the decoders', () => {
    const env = setup()
    const a = env.tab('tab-a')
    startStream(env)
    env.sockets[0]!.handlers.onDown()
    expect(a.control.got.at(-1)).toEqual({ t: 'status', state: 'reconnecting' })
    env.clock.advance(0)
    expect(env.sockets).toHaveLength(2)
    const restartsBefore = a.decoder.got.filter((m) => m.t === 'restart').length
    startStream(env)
    expect(env.json(env.sockets[1]!).filter((m) => m.op === 'open')).toHaveLength(1)
    expect(a.decoder.got.filter((m) => m.t === 'restart').length).toBe(restartsBefore + 1)
  })

  it('a socket that stops answering pings is taken as dead and replaced', () => {
    const env = setup()
    env.tab('tab-a')
    startStream(env)
    env.clock.advance(STREAM_TIMING.deadAfterMs + STREAM_TIMING.pingMs * 2)
    expect(env.sockets[0]!.closed).toBe(true)
    expect(env.sockets.length).toBeGreaterThanOrEqual(2)
  })

  it('a channel the server closes tells its viewers why and leaves the other phones streaming', () => {
    const env = setup()
    const a = env.tab('tab-a', 7)
    const b = env.tab('tab-a', 8)
    const { server, socket } = startStream(env, 7)
    server.closed('restarting')
    expect(a.control.got.at(-1)).toEqual({ t: 'status', state: 'closed', reason: 'restarting' })
    expect(b.control.got.some((m) => m.t === 'status' && m.state === 'closed')).toBe(false)
    expect(socket.closed).toBe(false)
  })

  it('forwards control input as a control-channel frame, and a keyframe request as scrcpy reset-video', () => {
    const env = setup()
    const a = env.tab('tab-a')
    const { socket } = startStream(env)
    a.send({ t: 'control', bytes: Uint8Array.of(2, 0, 1) })
    a.send({ t: 'keyframe' })
    const binary = socket.sent.filter((d): d is Uint8Array => d instanceof Uint8Array)
    expect(binary[0]).toEqual(encodeChannelFrame(STREAM_KIND.control, 7, Uint8Array.of(2, 0, 1)))
    expect(binary[1]).toEqual(encodeChannelFrame(STREAM_KIND.control, 7, Uint8Array.of(SCRCPY_RESET_VIDEO)))
  })

  it('a released tab drops its viewers', () => {
    const env = setup()
    env.tab('tab-a')
    const { socket } = startStream(env)
    env.hub.releaseTab('tab-a')
    expect(env.json(socket).some((m) => m.op === 'close')).toBe(true)
    expect(env.hub.stats().phonesOpen).toBe(0)
  })

  it('sound: the audio stream reaches the viewers that turned it on (the cached start first), and the server is told', () => {
    const env = setup()
    const a = env.tab('tab-a')
    const b = env.tab('tab-b')
    const socket = env.sockets[0]!
    socket.handlers.onOpen()
    const server = env.serverSends(socket, 7)
    const audio = (payload: Uint8Array) => socket.handlers.onMessage(encodeChannelFrame(STREAM_KIND.audio, 7, payload))
    const head = Uint8Array.of(0x4f, 0x70, 0x75, 0x73, 0x48, 0x65, 0x61, 0x64, 1, 2)
    const packet = (pts: bigint) => encodeMediaPacket({ config: false, keyframe: false, pts, data: Uint8Array.of(0xfc, pts === 0n ? 0 : 1) })
    // turned on while the phone is still opening: told once it is open
    a.send({ t: 'audio', on: true })
    expect(env.json(socket).filter((m) => m.op === 'audio')).toEqual([])
    server.opened()
    expect(env.json(socket).filter((m) => m.op === 'audio')).toEqual([{ op: 'audio', cardId: 7, on: true }])
    // the audio stream may start before the video's metadata: that does not wipe it
    audio(encodeAudioMeta())
    audio(encodeMediaPacket({ config: true, keyframe: false, pts: 0n, data: head }))
    server.meta()
    server.config()
    server.key(1000n)
    audio(packet(20_000n))
    const audioOf = (d: { got: CoreToDecoder[] }) => d.got.filter((m) => m.t === 'audio').map((m) => (m as { bytes: Uint8Array }).bytes.byteLength)
    expect(audioOf(a.decoder)).toEqual([4, 12 + head.length, 14])
    expect(audioOf(b.decoder)).toEqual([])
    // b turns it on mid-stream: the cached metadata and config, then packets; the server already sends sound
    b.send({ t: 'audio', on: true })
    audio(packet(40_000n))
    expect(audioOf(b.decoder)).toEqual([4, 12 + head.length, 14])
    expect(env.json(socket).filter((m) => m.op === 'audio')).toHaveLength(1)
    // both off: the server is told
    a.send({ t: 'audio', on: false })
    b.send({ t: 'audio', on: false })
    audio(packet(60_000n))
    expect(audioOf(a.decoder)).toHaveLength(4)
    expect(env.json(socket).filter((m) => m.op === 'audio').at(-1)).toEqual({ op: 'audio', cardId: 7, on: false })
  })
})
