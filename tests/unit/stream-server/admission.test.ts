// Issue 41 finding 3: a stream socket proves itself with its first open (or thumb) of a user's card; one that does
// not in time, or that keeps sending made-up card tokens, is closed (1008); an address holds only so many sockets
// that have not proved themselves; every message costs a token of the socket's bucket, pings and junk too.
import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAddressBook, STREAM_ADMISSION } from '../../../server/devices/sim/stream-admission.ts'
import { STREAM_LIMITS } from '../../../worker/protocol/stream.ts'
import { loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, startStreamServer, StreamClient, type OwnStreamServer } from './support.ts'

const t = useTestServer()
let own: OwnStreamServer
let demo: { token: string }

beforeAll(async () => {
  own = await startStreamServer(t.server.db, { authDeadlineMs: 400 })
  demo = await loginToken(t.base, '13800138000')
})
afterAll(() => own?.close())

const closeAll = async (clients: ReadonlyArray<StreamClient>, server = own) => {
  for (const c of clients) c.close()
  for (const c of clients) await c.until(() => c.closeCode !== null, 'closed').catch(() => undefined)
  // the server has let go of them too
  for (let i = 0; i < 50 && server.stream.socketCount() > 0; i++) await new Promise((r) => setTimeout(r, 20))
}

describe('stream sockets without a credential', () => {
  it('one that opens no card in time is closed, pings or not; one that opened a card stays', async () => {
    const anonymous = new StreamClient(own.url)
    const proved = new StreamClient(own.url)
    await Promise.all([anonymous.opened(), proved.opened()])
    const ready = await connectCard(t.base, demo.token, 880001)
    proved.send({ op: 'open', cardId: 880001, cardToken: ready.cardToken, preset: 'smooth', audio: false })
    anonymous.send({ op: 'ping', t: 1 })
    await anonymous.until(() => anonymous.closeCode !== null, 'the anonymous socket closed', 3_000)
    expect(anonymous.closeCode).toBe(1008)
    expect(proved.closeCode).toBeNull()
    await closeAll([proved])
  })

  it('made-up card tokens: the socket is closed after a few, each answered refused first', async () => {
    const client = new StreamClient(own.url)
    await client.opened()
    for (let i = 0; i < STREAM_ADMISSION.maxRefusals + 3; i++) client.send({ op: 'open', cardId: 880001, cardToken: `made-up-${i}`, preset: 'sd', audio: false })
    await client.until(() => client.closeCode !== null, 'closed', 3_000)
    expect(client.closeCode).toBe(1008)
    expect(client.texts.filter((m) => m.op === 'closed')).toHaveLength(STREAM_ADMISSION.maxRefusals)
  })

  it('a burst of made-up tokens costs a few lookups, not one per message', async () => {
    let queries = 0
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    const server = await startStreamServer(t.server.db.withPlugin(counting))
    const client = new StreamClient(server.url)
    await client.opened()
    const before = queries
    for (let i = 0; i < 200; i++) client.send({ op: 'open', cardId: 880001, cardToken: `made-up-${i}`, preset: 'sd', audio: false })
    await client.until(() => client.closeCode !== null, 'closed', 3_000)
    await new Promise((r) => setTimeout(r, 300))
    // one statement per card-token check
    expect(queries - before).toBeLessThanOrEqual(STREAM_ADMISSION.maxRefusals)
    await server.close()
  })

  it('an address holds at most so many sockets that have not proved themselves', async () => {
    // the product's deadline: none of them is closed for its silence meanwhile
    const server = await startStreamServer(t.server.db)
    const held: StreamClient[] = []
    for (let i = 0; i < STREAM_ADMISSION.maxAnonymousPerAddress; i++) {
      const c = new StreamClient(server.url)
      await c.opened()
      held.push(c)
    }
    const extra = new StreamClient(server.url)
    await expect(extra.opened()).rejects.toThrow()
    // one of them proves itself: a place is free again
    const ready = await connectCard(t.base, demo.token, 880002)
    held[0]!.send({ op: 'open', cardId: 880002, cardToken: ready.cardToken, preset: 'smooth', audio: false })
    await held[0]!.until(() => held[0]!.texts.some((m) => m.op === 'opened'), 'opened')
    const next = new StreamClient(server.url)
    await next.opened()
    await closeAll([...held, next], server)
    await server.close()
  })

  it('pings count against the bucket: a burst of them gets at most the burst in pongs', async () => {
    const client = new StreamClient(own.url)
    await client.opened()
    const ready = await connectCard(t.base, demo.token, 880004)
    client.send({ op: 'open', cardId: 880004, cardToken: ready.cardToken, preset: 'smooth', audio: false })
    await client.until(() => client.texts.some((m) => m.op === 'opened'), 'opened')
    for (let i = 0; i < 2 * STREAM_LIMITS.controlBurst; i++) client.send({ op: 'ping', t: i })
    client.ws.send('junk that is not JSON')
    await new Promise((r) => setTimeout(r, 300))
    const pongs = client.texts.filter((m) => m.op === 'pong').length
    expect(pongs).toBeGreaterThan(0)
    expect(pongs).toBeLessThanOrEqual(STREAM_LIMITS.controlBurst + 40)
    await closeAll([client])
  })
})

describe('the address book', () => {
  it('caps sockets per address, fewer unproved, and an address sending made-up tokens for a while', () => {
    let now = 0
    const book = createAddressBook({ ...STREAM_ADMISSION, maxPerAddress: 3, maxAnonymousPerAddress: 2, addressRefusalBurst: 2, addressRefusalEveryMs: 1_000 }, () => now)
    book.add('a')
    book.add('a')
    expect(book.admits('a')).toBe(false) // two unproved
    expect(book.admits('b')).toBe(true)
    book.proved('a')
    book.proved('a')
    book.add('a')
    expect(book.admits('a')).toBe(false) // three in all
    book.remove('a', true)
    expect(book.admits('a')).toBe(true)
    // made-up tokens: the burst, then none until the allowance grows back
    expect(book.refused('c')).toBe(true)
    expect(book.refused('c')).toBe(true)
    expect(book.refused('c')).toBe(false)
    expect(book.admits('c')).toBe(false)
    now += 2_000
    expect(book.admits('c')).toBe(true)
  })
})
