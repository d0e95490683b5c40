// The phone's picture through a real core (SharedWorker), a real stream socket to the reference server and the real
// decoder worker (WebCodecs into an OffscreenCanvas): one server stream for two tabs, nothing for a hidden tab, a
// tap that shows in the decoded pixels, a dropped socket that brings the picture back by itself.
import { afterEach, describe, expect, it } from 'vitest'
import type { CoreToDecoder, CoreToTab } from '../../worker/protocol/stream-ports.ts'
import { readMediaPacketHeader, VIDEO_META_BYTES } from '../../worker/protocol/stream.ts'
import type { DecoderOut } from '../../src/features/devices/stream/decoder-messages.ts'
import { makeCoreTest, waitFor, type TestTab } from './core-fixture.ts'
import { connectPhone, decodingViewer, type PhoneCard } from './phone-fixture.ts'

let env: ReturnType<typeof makeCoreTest> | null = null
const workers: Worker[] = []
afterEach(() => {
  env?.closeAll()
  env = null
  workers.splice(0).forEach((w) => w.terminate())
})

const connectFirstDevice = (tab: TestTab) => connectPhone(tab)

/** Opens the phone in a tab with raw ports: what the core posts to the "decoder" is recorded, not decoded. */
const rawViewer = async (tab: TestTab, card: PhoneCard) => {
  const decoder = new MessageChannel()
  const control = new MessageChannel()
  const video: CoreToDecoder[] = []
  const status: CoreToTab[] = []
  decoder.port1.onmessage = (e: MessageEvent<CoreToDecoder>) => void video.push(e.data)
  control.port1.onmessage = (e: MessageEvent<CoreToTab>) => void status.push(e.data)
  const { transfer } = await import('comlink')
  const id = await tab.client.api.openStream(
    { cardId: card.userCardId, cardToken: card.cardToken, preset: 'smooth', audio: false },
    transfer(decoder.port2, [decoder.port2]), transfer(control.port2, [control.port2]),
  )
  return { id, video, status, control: control.port1 }
}

const decoding = (tab: TestTab, card: PhoneCard) => decodingViewer(tab, card, workers)

describe('the phone stream through the core', () => {
  it('a viewer gets the scrcpy metadata, a config and a keyframe; a second tab joins without a new server stream', async () => {
    env = makeCoreTest()
    const a = await env.open()
    const card = await connectFirstDevice(a)
    const before = (await env.stats()).upgrades
    const first = await rawViewer(a, card)
    await waitFor(() => first.video.filter((m) => m.t === 'video').length >= 3, 8000)
    const [restart, meta, config, key] = first.video
    expect(restart).toEqual({ t: 'restart' })
    expect(meta!.t === 'video' && meta!.bytes.byteLength).toBe(VIDEO_META_BYTES)
    expect(config!.t === 'video' && readMediaPacketHeader(config!.bytes)?.config).toBe(true)
    expect(key!.t === 'video' && readMediaPacketHeader(key!.bytes)?.keyframe).toBe(true)
    expect((await env.stats()).upgrades).toBe(before + 1)

    const b = await env.open()
    const second = await rawViewer(b, card)
    await waitFor(() => second.video.filter((m) => m.t === 'video').length >= 3, 2000)
    expect(second.video[0]).toEqual({ t: 'restart' })
    expect((await env.stats()).upgrades).toBe(before + 1)
    expect(await a.client.api.streamStats()).toMatchObject({ socketsOpened: 1, phonesOpen: 1 })
  })

  it('a hidden tab receives no video', async () => {
    env = makeCoreTest()
    const a = await env.open()
    const card = await connectFirstDevice(a)
    const shown = await rawViewer(a, card)
    const hidden = await env.open(false)
    const quiet = await rawViewer(hidden, card)
    await waitFor(() => shown.video.length >= 4, 8000)
    await new Promise((r) => setTimeout(r, 1000))
    expect(quiet.video.filter((m) => m.t === 'video')).toHaveLength(0)
  })

  it('decodes real frames in the decoder worker, and a tap shows in the pixels (the input marker)', async () => {
    env = makeCoreTest()
    const a = await env.open()
    const card = await connectFirstDevice(a)
    const viewer = await decoding(a, card)
    await waitFor(() => viewer.out.some((m) => m.t === 'frame'), 8000)
    const size = viewer.size()!
    expect(size.height).toBeGreaterThan(size.width)
    await waitFor(() => viewer.markers().length > 0, 3000)
    const start = viewer.markers().at(-1)!
    viewer.touch(size.width / 2, size.height * 0.9)
    await waitFor(() => viewer.markers().some((m) => m !== start), 3000)
  })

  it('a dropped socket brings the picture back by itself: the decoder is restarted and frames flow again', async () => {
    env = makeCoreTest()
    const a = await env.open()
    const card = await connectFirstDevice(a)
    const viewer = await decoding(a, card)
    await waitFor(() => viewer.out.some((m) => m.t === 'frame'), 8000)
    const framesBefore = viewer.out.filter((m) => m.t === 'frame').length
    const droppedAt = Date.now()
    await env.proxy('drop')
    await waitFor(() => viewer.out.filter((m) => m.t === 'frame').length > framesBefore, 4000)
    // within 2 s of the connection being possible again (it is possible at once here)
    expect(Date.now() - droppedAt).toBeLessThan(2000)
  })

  it('the dedicated-worker fallback streams too: each tab has its own core and its own stream socket, and decodes real frames', async () => {
    // no SharedWorker: every tab starts a core of its own (same worker name, so the same session database)
    env = makeCoreTest({ forceDedicated: true })
    const a = await env.open()
    expect(a.client.mode).toBe('dedicated')
    const card = await connectFirstDevice(a)
    const b = await env.open()
    await waitFor(() => b.state().session.loggedIn, 5000)
    expect((await env.stats()).streamUpgrades).toBe(0)
    const first = await decoding(a, card)
    const second = await decoding(b, card)
    await waitFor(() => first.out.some((m) => m.t === 'frame') && second.out.some((m) => m.t === 'frame'), 8000)
    await waitFor(() => first.markers().length > 0 && second.markers().length > 0, 3000)
    // two cores, one socket each: the proxy saw two stream upgrades, one per tab (the push sockets are not counted)
    expect(await a.client.api.streamStats()).toMatchObject({ socketsOpened: 1, phonesOpen: 1 })
    expect(await b.client.api.streamStats()).toMatchObject({ socketsOpened: 1, phonesOpen: 1 })
    expect((await env.stats()).streamUpgrades).toBe(2)
  })
})
