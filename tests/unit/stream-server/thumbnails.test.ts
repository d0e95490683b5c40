// The wall's thumbnail channel (worker/protocol/stream.ts THUMBNAIL): authorised exactly as a video open (card tokens),
// JPEG stills at 240p on the thumbnail kind, the last still at once for a new subscriber, nothing while the picture is
// unchanged, a kick ends it with the reason, and a socket holds the fleet account's 60 phones.
import { loadImage } from '@napi-rs/canvas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { stillTime, STREAM_KIND, STREAM_LIMITS, THUMBNAIL } from '../../../worker/protocol/stream.ts'
import { FLEET_SIZE } from '../../../server/db/seed.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, startStreamServer, StreamClient, touch, type OwnStreamServer, deviceIdOf } from './support.ts'

const t = useTestServer()
let own: OwnStreamServer
let demo: { token: string }
let member: { token: string }

beforeAll(async () => {
  own = await startStreamServer(t.server.db)
  demo = await loginToken(t.base, '13800138000')
  member = await loginToken(t.base, '13500135000')
})
afterAll(() => own?.close())

const deviceOf = (userCardId: number): Promise<number> => deviceIdOf(t.server.db, userCardId)

const stills = (client: StreamClient, cardId: number): Uint8Array[] => client.channels.get(`${STREAM_KIND.thumbnail}:${cardId}`) ?? []
const thumbClosed = (client: StreamClient, cardId: number): string | null => {
  const m = client.texts.find((x) => x.op === 'thumbClosed' && x.cardId === cardId)
  return m && m.op === 'thumbClosed' ? m.reason : null
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('thumbnail channels', () => {
  it('a card token subscribes a card: a 240p JPEG still, the cached still at once for a second socket, none while unchanged', async () => {
    const ready = await connectCard(t.base, demo.token, 880001)
    const a = new StreamClient(own.url)
    await a.opened()
    a.send({ op: 'thumb', cardId: 880001, cardToken: ready.cardToken })
    await a.until(() => stills(a, 880001).length >= 1, 'a still')
    const first = stills(a, 880001)[0]!
    expect([first[0], first[1]]).toEqual([0xff, 0xd8])
    // it says when the server drew it (the tile's age is measured from that)
    expect(Math.abs(stillTime(first)! - Date.now())).toBeLessThan(5_000)
    const image = await loadImage(Buffer.from(first))
    expect(Math.min(image.width, image.height)).toBe(THUMBNAIL.shortSide)
    expect(first.byteLength).toBeLessThan(30_000)
    // no video was asked for: the thumbnail channel alone
    expect(a.video(880001)).toEqual([])
    expect(own.stream.thumbSubscribers(await deviceOf(880001))).toBe(1)

    const b = new StreamClient(own.url)
    await b.opened()
    const t0 = Date.now()
    b.send({ op: 'thumb', cardId: 880001, cardToken: ready.cardToken })
    await b.until(() => stills(b, 880001).length >= 1, 'the cached still')
    expect(Date.now() - t0).toBeLessThan(900)
    expect(Buffer.from(stills(b, 880001)[0]!).equals(Buffer.from(first))).toBe(true)

    // unchanged picture: nothing more within a couple of ticks unless the clock's minute turned
    const before = stills(a, 880001).length
    await sleep(2_200)
    expect(stills(a, 880001).length - before).toBeLessThanOrEqual(1)

    // a tap (on a video channel of the same card) changes the phone: the next tick sends a new still
    a.send({ op: 'open', cardId: 880001, cardToken: ready.cardToken, preset: 'smooth', audio: false })
    await a.until(() => a.video(880001).length >= 3, 'video')
    a.control(880001, touch(0, 100, 400, 360, 640))
    a.control(880001, touch(1, 100, 400, 360, 640))
    const n = stills(a, 880001).length
    await a.until(() => stills(a, 880001).length > n, 'a new still after the tap', 3_000)

    // unthumb: that socket is no longer subscribed
    b.send({ op: 'unthumb', cardId: 880001 })
    a.send({ op: 'unthumb', cardId: 880001 })
    await sleep(200)
    expect(own.stream.thumbSubscribers(await deviceOf(880001))).toBe(0)
    a.close()
    b.close()
  })

  it('refuses exactly as open does: a bad token, a token of another card, another user\'s token', async () => {
    const client = new StreamClient(own.url)
    await client.opened()
    const mine = await connectCard(t.base, demo.token, 880001)
    const theirs = await connectCard(t.base, member.token, 880006)
    client.send({ op: 'thumb', cardId: 880001, cardToken: 'nope' })
    client.send({ op: 'thumb', cardId: 880002, cardToken: mine.cardToken })
    client.send({ op: 'thumb', cardId: 880001, cardToken: theirs.cardToken })
    await client.until(() => client.texts.length >= 3, 'three answers')
    expect(client.texts).toEqual([
      { op: 'thumbClosed', cardId: 880001, reason: 'refused' },
      { op: 'thumbClosed', cardId: 880002, reason: 'refused' },
      { op: 'thumbClosed', cardId: 880001, reason: 'refused' },
    ])
    await sleep(300)
    expect(stills(client, 880001)).toEqual([])
    expect(stills(client, 880002)).toEqual([])
    client.close()
  })

  it('a reboot ends the card\'s thumbnails with restarting', async () => {
    const ready = await connectCard(t.base, demo.token, 880002)
    const real = new StreamClient(t.base)
    await real.opened()
    real.send({ op: 'thumb', cardId: 880002, cardToken: ready.cardToken })
    await real.until(() => stills(real, 880002).length >= 1, 'a still')
    const reboot = await api(t.base, 'GET', `${catalogue.rebootDevice.path}?userCardId=880002`, { token: demo.token })
    expect(reboot.body.status).toBe(0)
    await real.until(() => thumbClosed(real, 880002) !== null, 'the kick')
    expect(thumbClosed(real, 880002)).toBe('restarting')
    real.close()
  })

  it('one socket holds the fleet account\'s sixty phones (every usable one paints; expired ones cannot connect)', async () => {
    expect(STREAM_LIMITS.maxThumbnailsPerSocket).toBeGreaterThanOrEqual(FLEET_SIZE)
    const fleet = await loginToken(t.base, '13600136000')
    const client = new StreamClient(own.url)
    await client.opened()
    const cards: number[] = []
    for (let i = 0; i < FLEET_SIZE; i++) {
      const cardId = 890001 + i
      const r = await api<{ cardToken: string }>(t.base, 'POST', catalogue.connect.path, { token: fleet.token, body: { userCardId: cardId } })
      if (r.body.status !== 0) continue
      cards.push(cardId)
      client.send({ op: 'thumb', cardId, cardToken: r.body.data.cardToken })
    }
    expect(cards.length).toBeGreaterThanOrEqual(50)
    await client.until(() => cards.every((c) => stills(client, c).length >= 1), 'every still', 20_000)
    const bytes = cards.map((c) => stills(client, c)[0]!.byteLength)
    console.log(`fleet wall: ${cards.length} stills, ${Math.round(bytes.reduce((a, b) => a + b, 0) / cards.length)} bytes each on average`)
    expect(client.texts.filter((m) => m.op === 'thumbClosed')).toEqual([])
    client.close()
  }, 60_000)
})
