// The core's side of group control's mirrored input (issue 23): a viewer's mirror set reaches the server once its
// phone is open, the union of the viewers' sets when two tabs view one master, again after a reconnect, and the
// server's answer (accepted targets, refused ones with the reason) reaches the phone's viewers.
import { describe, expect, it } from 'vitest'
import type { CoreToDecoder, CoreToTab } from '../../../worker/protocol/stream-ports.ts'
import type { StreamClientMessage } from '../../../worker/protocol/stream.ts'
import type { HubPort } from '../../../worker/stream/stream-hub.ts'
import { hubWithFakes, type FakeSocket } from './stream-hub-support.ts'

const setup = () => {
  const { clock, sockets, visible, hub } = hubWithFakes()
  const port = <T>() => {
    const got: T[] = []
    const p: HubPort<T> & { got: T[] } = { got, onmessage: null, postMessage: (m) => void got.push(m), close: () => {} }
    return p
  }
  const tab = (tabId: string, cardId = 7) => {
    visible.set(tabId, true)
    const decoder = port<CoreToDecoder>()
    const control = port<CoreToTab>()
    const id = hub.open(tabId, { cardId, cardToken: `token-${cardId}`, preset: 'sd', audio: false }, decoder, control)
    return { id, control, send: (m: unknown) => control.onmessage?.({ data: m }) }
  }
  const mirrors = (s: FakeSocket) =>
    s.sent.filter((d): d is string => typeof d === 'string').map((d) => JSON.parse(d) as StreamClientMessage).filter((m) => m.op === 'mirror')
  const opened = (s: FakeSocket, cardId = 7) => s.handlers.onMessage(JSON.stringify({ op: 'opened', cardId, preset: 'sd' }))
  return { hub, clock, sockets, tab, mirrors, opened }
}

describe('mirrored input in the core', () => {
  it('tells the server the union of the viewers\' sets once the phone is open, and passes its answer to the viewers', () => {
    const env = setup()
    const a = env.tab('a')
    a.send({ t: 'mirror', targets: [9, 8, 8, -1, 1.5] })
    const socket = env.sockets[0]!
    socket.handlers.onOpen()
    // not before the phone is open
    expect(env.mirrors(socket)).toEqual([])
    env.opened(socket)
    expect(env.mirrors(socket)).toEqual([{ op: 'mirror', cardId: 7, targets: [8, 9] }])

    const b = env.tab('b')
    b.send({ t: 'mirror', targets: [10] })
    expect(env.mirrors(socket).at(-1)).toEqual({ op: 'mirror', cardId: 7, targets: [8, 9, 10] })

    socket.handlers.onMessage(JSON.stringify({ op: 'mirrored', cardId: 7, targets: [8, 10], refused: [{ cardId: 9, reason: 'restarting' }] }))
    for (const viewer of [a, b]) {
      expect(viewer.control.got.at(-1)).toEqual({ t: 'mirrored', targets: [8, 10], refused: [{ cardId: 9, reason: 'restarting' }] })
    }

    // a viewer that leaves takes its set with it
    env.hub.close(b.id)
    expect(env.mirrors(socket).at(-1)).toEqual({ op: 'mirror', cardId: 7, targets: [8, 9] })
    // asked again with the same set: the server is asked again (a phone that finished restarting joins)
    const before = env.mirrors(socket).length
    a.send({ t: 'mirror', targets: [8, 9] })
    expect(env.mirrors(socket)).toHaveLength(before + 1)
  })

  it('sends the set again after the socket dropped and the phone opened anew', () => {
    const env = setup()
    const a = env.tab('a')
    const first = env.sockets[0]!
    first.handlers.onOpen()
    env.opened(first)
    a.send({ t: 'mirror', targets: [8] })
    expect(env.mirrors(first)).toHaveLength(1)
    first.handlers.onDown()
    env.clock.advance(1_000)
    const second = env.sockets.at(-1)!
    expect(second).not.toBe(first)
    second.handlers.onOpen()
    env.opened(second)
    expect(env.mirrors(second)).toEqual([{ op: 'mirror', cardId: 7, targets: [8] }])
    // an empty set stops it
    a.send({ t: 'mirror', targets: [] })
    expect(env.mirrors(second).at(-1)).toEqual({ op: 'mirror', cardId: 7, targets: [] })
  })
})
