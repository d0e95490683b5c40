// Issue 41 finding 2: `mirror` is charged by its work, each target not yet authorised costing a token of the socket's
// bucket (one message of 60 made-up targets used to cost one), and a target authorised in this mirror session is not
// looked up again.
import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, startStreamServer, StreamClient, type OwnStreamServer } from './support.ts'

const t = useTestServer()
let own: OwnStreamServer
let demo: { token: string }
let queries = 0
const counting: KyselyPlugin = {
  transformQuery: (args) => {
    queries += 1
    return args.node
  },
  transformResult: async (args) => args.result,
}

beforeAll(async () => {
  own = await startStreamServer(t.server.db.withPlugin(counting))
  demo = await loginToken(t.base, '13800138000')
})
afterAll(() => own?.close())

type Mirrored = { op: 'mirrored'; cardId: number; targets: ReadonlyArray<number>; refused: ReadonlyArray<{ cardId: number; reason: string }> }
const mirrored = (c: StreamClient): Mirrored[] => c.texts.filter((m) => m.op === 'mirrored') as Mirrored[]

const master = async (cardId: number) => {
  const client = new StreamClient(own.url)
  await client.opened()
  const ready = await connectCard(t.base, demo.token, cardId)
  client.send({ op: 'open', cardId, cardToken: ready.cardToken, preset: 'smooth', audio: false })
  await client.until(() => client.texts.some((m) => m.op === 'opened'), 'opened')
  return client
}

describe('mirror charged by its work', () => {
  it('60 made-up targets cost 60 tokens: the bucket (240 at once, 120 a second) takes a few such messages, then refuses them flood', async () => {
    const client = await master(880001)
    const made = Array.from({ length: 60 }, (_, i) => 990_000 + i)
    for (let i = 0; i < 20; i++) client.send({ op: 'mirror', cardId: 880001, targets: made })
    const flooded = () => mirrored(client).filter((m) => m.refused.every((r) => r.reason === 'flood'))
    await client.until(() => flooded().length >= 12, 'twelve refused flood')
    await new Promise((r) => setTimeout(r, 500))
    // the others were looked up one at a time (one that waited behind another is replaced by the next)
    expect(mirrored(client).length - flooded().length).toBeLessThanOrEqual(8)
    client.close()
  }, 20_000)

  it('a target authorised in this session is not looked up again', async () => {
    const client = await master(880002)
    client.send({ op: 'mirror', cardId: 880002, targets: [880001, 880004] })
    await client.until(() => mirrored(client).length >= 1, 'the first answer')
    expect([...mirrored(client)[0]!.targets].sort()).toEqual([880001, 880004])
    client.send({ op: 'mirror', cardId: 880002, targets: [] })
    await client.until(() => mirrored(client).length >= 2, 'the second answer')
    const before = queries
    client.send({ op: 'mirror', cardId: 880002, targets: [880001, 880004] })
    await client.until(() => mirrored(client).length >= 3, 'the third answer')
    expect([...mirrored(client)[2]!.targets].sort()).toEqual([880001, 880004])
    expect(queries - before).toBe(0)
    client.close()
  }, 20_000)
})
