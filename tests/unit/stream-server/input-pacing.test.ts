// Issue 41 findings 1 and 6 on the stream server: a finger's moves cost the phone its preset's frame rate, no more; an
// instance at its cap of encoding phones refuses a new phone 'busy' (a phone already on screen still opens); a
// viewer's reset-video and preset changes are rate-limited, so a co-viewer cannot flood the owner's stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMediaPacketHeader, VIDEO_META_BYTES } from '../../../worker/protocol/stream.ts'
import { loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, startStreamServer, StreamClient, touch, type OwnStreamServer } from './support.ts'

const t = useTestServer()
let own: OwnStreamServer
let demo: { token: string }

beforeAll(async () => {
  own = await startStreamServer(t.server.db)
  demo = await loginToken(t.base, '13800138000')
})
afterAll(() => own?.close())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const openOn = async (client: StreamClient, cardId: number, preset: 'smooth' | 'sd' | 'hd' = 'smooth') => {
  const ready = await connectCard(t.base, demo.token, cardId)
  client.send({ op: 'open', cardId, cardToken: ready.cardToken, preset, audio: false })
  await client.until(() => client.texts.some((m) => (m.op === 'opened' || m.op === 'closed') && m.cardId === cardId), `an answer for ${cardId}`)
}

/** a socket viewing the card, its first keyframe in. */
const viewer = async (base: string, cardId: number) => {
  const client = new StreamClient(base)
  await client.opened()
  await openOn(client, cardId)
  await client.until(() => client.video(cardId).some((p) => readMediaPacketHeader(p)?.keyframe === true), 'the first keyframe')
  return client
}

const pictures = (payloads: ReadonlyArray<Uint8Array>) =>
  payloads.filter((p) => p.byteLength !== VIDEO_META_BYTES && readMediaPacketHeader(p)?.config === false)
const keyframes = (payloads: ReadonlyArray<Uint8Array>) => pictures(payloads).filter((p) => readMediaPacketHeader(p)!.keyframe)
const metas = (payloads: ReadonlyArray<Uint8Array>) => payloads.filter((p) => p.byteLength === VIDEO_META_BYTES)

describe('input paced to the frame rate', () => {
  it('a drag of 200 moves in a second makes about the preset\'s 20 frames, not one per move', async () => {
    const client = await viewer(own.url, 880001)
    await sleep(300)
    const before = pictures(client.video(880001)).length
    client.control(880001, touch(0, 180, 300, 360, 640))
    const started = performance.now()
    for (let i = 0; i < 200; i++) {
      client.control(880001, touch(2, 180, 300 + (i % 100), 360, 640))
      await sleep(5)
    }
    client.control(880001, touch(1, 180, 300, 360, 640))
    await sleep(200)
    const seconds = (performance.now() - started) / 1000
    const frames = pictures(client.video(880001)).length - before
    expect(frames).toBeGreaterThan(5)
    // 20 fps over the drag, and the press and release at once (each with the frame its marker change needs)
    expect(frames).toBeLessThanOrEqual(Math.ceil(seconds * 20) + 4)
    client.close()
  }, 20_000)
})

describe('a cap of encoding phones', () => {
  it('refuses a new phone busy at the cap; a phone already on screen opens; a freed place opens again', async () => {
    const capped = await startStreamServer(t.server.db, { maxEncodingPhones: 1 })
    try {
      const first = await viewer(capped.url, 880001)
      const client = new StreamClient(capped.url)
      await client.opened()
      await openOn(client, 880002)
      expect(client.closedReason(880002)).toBe('busy')
      await openOn(client, 880001)
      expect(client.texts.some((m) => m.op === 'opened' && m.cardId === 880001)).toBe(true)
      first.send({ op: 'close', cardId: 880001 })
      client.send({ op: 'close', cardId: 880001 })
      await sleep(100)
      const again = new StreamClient(capped.url)
      await again.opened()
      await openOn(again, 880002)
      expect(again.texts.some((m) => m.op === 'opened' && m.cardId === 880002)).toBe(true)
      for (const c of [first, client, again]) c.close()
    } finally {
      await capped.close()
    }
  }, 20_000)
})

describe('a co-viewer cannot flood the owner\'s stream (finding 6)', () => {
  it('50 reset-video in a second give the owner a few keyframes, not 50', async () => {
    const owner = await viewer(own.url, 880002)
    const other = await viewer(own.url, 880002)
    await sleep(300)
    const before = keyframes(owner.video(880002)).length
    for (let i = 0; i < 50; i++) {
      other.control(880002, Uint8Array.of(17))
      await sleep(20)
    }
    await sleep(300)
    expect(keyframes(owner.video(880002)).length - before).toBeLessThanOrEqual(8)
    owner.close()
    other.close()
  }, 20_000)

  it('50 preset flips in a second restart the owner\'s stream a few times, and the last preset wins', async () => {
    const owner = await viewer(own.url, 880004)
    const other = await viewer(own.url, 880004)
    await sleep(200)
    const before = metas(owner.video(880004)).length
    for (let i = 0; i < 50; i++) {
      other.send({ op: 'preset', cardId: 880004, preset: i % 2 === 0 ? 'sd' : 'smooth' })
      await sleep(20)
    }
    other.send({ op: 'preset', cardId: 880004, preset: 'sd' })
    await sleep(1_300)
    const restarts = metas(owner.video(880004)).length - before
    expect(restarts).toBeGreaterThanOrEqual(1)
    expect(restarts).toBeLessThanOrEqual(4)
    // the last one asked is applied when its gap ends: the owner ends on sd (540 wide)
    const last = owner.video(880004).filter((p) => p.byteLength === VIDEO_META_BYTES).at(-1)!
    expect(new DataView(last.buffer, last.byteOffset).getUint32(4, false)).toBe(540)
    owner.close()
    other.close()
  }, 20_000)
})
