// The core's wall (worker/stream/stream-hub.ts): the union of the tiles visible in visible tabs subscribed on the one
// socket, the last still of each card cached and painted at once in a tab that asks later, nothing for hidden tabs or
// tiles off screen (unsubscribed after the grace), an ended card loses its still, a token asked of a tab when missing.
import { describe, expect, it } from 'vitest'
import { hubWithFakes, type FakeSocket } from './stream-hub-support.ts'
import { STREAM_TIMING, type HubPort } from '../../../worker/stream/stream-hub.ts'
import type { WallToTab } from '../../../worker/protocol/stream-ports.ts'
import { encodeChannelFrame, STREAM_KIND, type StreamClientMessage } from '../../../worker/protocol/stream.ts'

const setup = () => {
  const { clock, sockets, visible, hub } = hubWithFakes()
  const wall = (tabId: string, shown = true) => {
    visible.set(tabId, shown)
    const got: WallToTab[] = []
    const port: HubPort<WallToTab> = { onmessage: null, postMessage: (m) => void got.push(m), close: () => {} }
    const id = hub.attachWall(tabId, port)
    const send = (m: unknown) => port.onmessage?.({ data: m })
    return {
      id, got,
      want: (...cards: number[]) => send({ t: 'want', cards }),
      token: (cardId: number) => send({ t: 'token', cardId, cardToken: `token-${cardId}` }),
      stills: (cardId: number) => got.filter((m) => m.t === 'still' && m.cardId === cardId),
    }
  }
  const json = (s: FakeSocket) => s.sent.filter((d): d is string => typeof d === 'string').map((d) => JSON.parse(d) as StreamClientMessage)
  const still = (s: FakeSocket, cardId: number, byte: number) =>
    s.handlers.onMessage(encodeChannelFrame(STREAM_KIND.thumbnail, cardId, Uint8Array.of(0xff, 0xd8, byte)))
  const thumbClosed = (s: FakeSocket, cardId: number, reason: string) => s.handlers.onMessage(JSON.stringify({ op: 'thumbClosed', cardId, reason }))
  return { clock, sockets, visible, hub, wall, json, still, thumbClosed }
}

describe('the wall in the core', () => {
  it('asks a tab for a missing token, subscribes the union of visible tiles on one socket, and a later tab paints from the cache', () => {
    const t = setup()
    const a = t.wall('a')
    a.want(1, 2)
    expect(a.got).toEqual([{ t: 'needToken', cardId: 1 }, { t: 'needToken', cardId: 2 }])
    a.token(1)
    a.token(2)
    expect(t.sockets).toHaveLength(1)
    const s = t.sockets[0]!
    s.handlers.onOpen()
    expect(t.json(s).filter((m) => m.op === 'thumb')).toEqual([
      { op: 'thumb', cardId: 1, cardToken: 'token-1' },
      { op: 'thumb', cardId: 2, cardToken: 'token-2' },
    ])
    t.still(s, 1, 10)
    t.still(s, 2, 20)
    expect(a.stills(1)).toHaveLength(1)

    // a second tab: every tile at once from the cache, no new socket, no second subscription, no token asked
    const b = t.wall('b')
    b.want(1, 2, 3)
    expect(b.got.filter((m) => m.t === 'still').map((m) => m.t === 'still' && [...m.bytes])).toEqual([[0xff, 0xd8, 10], [0xff, 0xd8, 20]])
    expect(b.got).toContainEqual({ t: 'needToken', cardId: 3 })
    expect(t.sockets).toHaveLength(1)
    expect(t.json(s).filter((m) => m.op === 'thumb')).toHaveLength(2)
    // a new still reaches both
    t.still(s, 1, 11)
    expect(a.stills(1)).toHaveLength(2)
    expect(b.stills(1)).toHaveLength(2)
    expect(t.hub.stats()).toMatchObject({ socketsOpened: 1, thumbsOpen: 2 })
  })

  it('a tile off screen in every visible tab, or a hidden tab, costs nothing: unsubscribed after the grace, the socket closed later', () => {
    const t = setup()
    const a = t.wall('a')
    a.want(1)
    a.token(1)
    const s = t.sockets[0]!
    s.handlers.onOpen()
    t.still(s, 1, 1)
    // hidden: no stills to it; after the grace the card is unsubscribed
    t.visible.set('a', false)
    t.hub.setVisible('a', false)
    t.still(s, 1, 2)
    expect(a.stills(1)).toHaveLength(1)
    t.clock.advance(STREAM_TIMING.phoneGraceMs)
    expect(t.json(s)).toContainEqual({ op: 'unthumb', cardId: 1 })
    expect(t.hub.stats().thumbsOpen).toBe(0)
    t.clock.advance(STREAM_TIMING.socketGraceMs)
    expect(s.closed).toBe(true)
    // shown again: the cached still at once, subscribed again on a new socket
    t.visible.set('a', true)
    t.hub.setVisible('a', true)
    expect(a.stills(1).map((m) => m.t === 'still' && m.bytes[2])).toEqual([1, 2])
    expect(t.sockets).toHaveLength(2)
    t.sockets[1]!.handlers.onOpen()
    expect(t.json(t.sockets[1]!)).toContainEqual({ op: 'thumb', cardId: 1, cardToken: 'token-1' })
    // scrolled out of view (the want set without it), back within the grace: no unsubscribe
    a.want()
    t.clock.advance(STREAM_TIMING.phoneGraceMs - 1)
    a.want(1)
    t.clock.advance(STREAM_TIMING.phoneGraceMs)
    expect(t.json(t.sockets[1]!).filter((m) => m.op === 'unthumb')).toEqual([])
  })

  it('an ended card drops its still (the tile shows why); a stale token is asked for again, a restart retried, expiry not', () => {
    const t = setup()
    const a = t.wall('a')
    a.want(1, 2, 3)
    a.token(1)
    a.token(2)
    a.token(3)
    const s = t.sockets[0]!
    s.handlers.onOpen()
    t.still(s, 1, 1)
    t.thumbClosed(s, 1, 'expired')
    t.thumbClosed(s, 2, 'restarting')
    t.thumbClosed(s, 3, 'sessionEnded')
    expect(a.got).toContainEqual({ t: 'ended', cardId: 1, reason: 'expired' })
    expect(a.got).toContainEqual({ t: 'ended', cardId: 2, reason: 'restarting' })
    // a tab opened now sees the reasons, never the expired phone's picture
    const b = t.wall('b')
    b.want(1)
    expect(b.got).toEqual([{ t: 'ended', cardId: 1, reason: 'expired' }])
    const before = t.json(s).filter((m) => m.op === 'thumb').length
    // the server keeps answering pings meanwhile
    for (let ms = 0; ms < STREAM_TIMING.thumbRetryMs; ms += 1_000) {
      s.handlers.onMessage(JSON.stringify({ op: 'pong', t: 0 }))
      t.clock.advance(1_000)
    }
    expect(t.sockets).toHaveLength(1)
    const again = t.json(s).filter((m) => m.op === 'thumb').slice(before)
    expect(again).toEqual([{ op: 'thumb', cardId: 2, cardToken: 'token-2' }])
    expect(a.got).toContainEqual({ t: 'needToken', cardId: 3 })
  })

  it('a dropped socket keeps the stills and subscribes again on the new one', () => {
    const t = setup()
    const a = t.wall('a')
    a.want(5)
    a.token(5)
    t.sockets[0]!.handlers.onOpen()
    t.still(t.sockets[0]!, 5, 7)
    t.sockets[0]!.handlers.onDown()
    t.clock.advance(0)
    expect(t.sockets).toHaveLength(2)
    t.sockets[1]!.handlers.onOpen()
    expect(t.json(t.sockets[1]!)).toEqual([{ op: 'thumb', cardId: 5, cardToken: 'token-5' }])
    const b = t.wall('b')
    b.want(5)
    expect(b.stills(5)).toHaveLength(1)
    t.hub.detachWall(a.id)
    t.hub.releaseTab('b')
    t.clock.advance(STREAM_TIMING.phoneGraceMs)
    expect(t.json(t.sockets[1]!)).toContainEqual({ op: 'unthumb', cardId: 5 })
  })
})
