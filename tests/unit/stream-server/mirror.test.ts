// Group control's mirrored input (issue 23): `mirror` makes an open card's input reach other phones of the same user,
// each authorised by the server (owner or grantee, not expired, not restarting), scaled to each phone's screen and
// orientation; a removed authorisation drops the phone from the group at once; an empty set stops it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appIconCenter, initialPhone } from '../../../server/devices/sim/phone.ts'
import { PHONE_SCREEN } from '../../../worker/protocol/stream.ts'
import { loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, deviceIdOf, serializer, startStreamServer, StreamClient, touch, type OwnStreamServer } from './support.ts'

const t = useTestServer()
let own: OwnStreamServer
let demo: { token: string }

beforeAll(async () => {
  own = await startStreamServer(t.server.db)
  demo = await loginToken(t.base, '13800138000')
})
afterAll(() => own?.close())

const deviceOf = (userCardId: number): Promise<number> => deviceIdOf(t.server.db, userCardId)
const stateOf = async (userCardId: number) => own.stream.phoneState(await deviceOf(userCardId))
type Mirrored = { op: 'mirrored'; cardId: number; targets: ReadonlyArray<number>; refused: ReadonlyArray<{ cardId: number; reason: string }> }
const mirroredMessages = (c: StreamClient): Mirrored[] => c.texts.filter((m) => m.op === 'mirrored') as Mirrored[]

/** a tap at logical point (x, y) of a portrait phone, sent in the 360x640 picture's coordinates. */
const tapOn = (client: StreamClient, cardId: number, x: number, y: number) => {
  const vx = Math.round((x * 360) / PHONE_SCREEN.width)
  const vy = Math.round((y * 640) / PHONE_SCREEN.height)
  client.control(cardId, touch(0, vx, vy, 360, 640))
  client.control(cardId, touch(1, vx, vy, 360, 640))
}

const open = async (client: StreamClient, cardId: number) => {
  const ready = await connectCard(t.base, demo.token, cardId)
  client.send({ op: 'open', cardId, cardToken: ready.cardToken, preset: 'smooth', audio: false })
  await client.until(() => client.texts.some((m) => m.op === 'opened' && m.cardId === cardId), `opened ${cardId}`)
}

describe('mirrored input', () => {
  it('authorises every target for the socket\'s user, reaches each, scaled to its orientation, and drops a de-authorised one', async () => {
    const client = new StreamClient(own.url)
    await client.opened()
    await open(client, 880001)
    // 880002: demo's; 880004: authorised to demo; 880003: expired; 880006: another user's; 999999: none
    client.send({ op: 'mirror', cardId: 880001, targets: [880002, 880004, 880003, 880006, 999999] })
    await client.until(() => mirroredMessages(client).length >= 1, 'mirrored')
    const first = mirroredMessages(client)[0]!
    expect([...first.targets].sort()).toEqual([880002, 880004])
    expect(first.refused).toEqual(expect.arrayContaining([
      { cardId: 880003, reason: 'expired' }, { cardId: 880006, reason: 'refused' }, { cardId: 999999, reason: 'refused' },
    ]))

    // 880004's own viewer (another socket) opens its 计数器 and turns it to landscape
    const other = new StreamClient(own.url)
    await other.opened()
    await open(other, 880004)
    const icon = appIconCenter(initialPhone, 'counter')!
    tapOn(other, 880004, icon.x, icon.y)
    other.control(880004, serializer.rotateDevice() as Uint8Array)
    await new Promise((r) => setTimeout(r, 100))
    expect(await stateOf(880004)).toMatchObject({ orientation: 'landscape', screen: 'counter' })
    const counters = async () => Promise.all([880001, 880002, 880004].map(async (id) => (await stateOf(id))?.counter ?? 0))

    // the master opens 计数器: so does 880002 (portrait, same icon)
    tapOn(client, 880001, icon.x, icon.y)
    await new Promise((r) => setTimeout(r, 100))
    expect((await stateOf(880001))?.screen).toBe('counter')
    expect((await stateOf(880002))?.screen).toBe('counter')
    const before = await counters()
    // a tap in the middle of the master's screen: the middle of each phone's screen, whatever its orientation
    tapOn(client, 880001, 360, 640)
    await new Promise((r) => setTimeout(r, 100))
    expect(await counters()).toEqual(before.map((n) => n + 1))
    // scaled: the landscape phone's ripple is in the middle of its landscape screen
    const ripple = (await stateOf(880004))!.ripples.at(-1)!
    expect(ripple).toMatchObject({ x: PHONE_SCREEN.height / 2, y: PHONE_SCREEN.width / 2 })

    // the authorisation of 880004 is removed (removeAuth): it leaves the group at once, the master is told why
    const demoId = (await t.server.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id
    own.stream.kick(await deviceOf(880004), 'accessRemoved', demoId)
    await client.until(() => mirroredMessages(client).length >= 2, 'the group without 880004')
    expect(mirroredMessages(client)[1]).toEqual({ op: 'mirrored', cardId: 880001, targets: [880002], refused: [{ cardId: 880004, reason: 'accessRemoved' }] })
    const now = await counters()
    tapOn(client, 880001, 360, 640)
    await new Promise((r) => setTimeout(r, 100))
    expect(await counters()).toEqual([now[0]! + 1, now[1]! + 1, now[2]!])

    // an empty set stops mirroring
    client.send({ op: 'mirror', cardId: 880001, targets: [] })
    await client.until(() => mirroredMessages(client).length >= 3, 'mirror stopped')
    expect(mirroredMessages(client)[2]!.targets).toEqual([])
    const stopped = await counters()
    tapOn(client, 880001, 360, 640)
    await new Promise((r) => setTimeout(r, 100))
    expect(await counters()).toEqual([stopped[0]! + 1, stopped[1]!, stopped[2]!])
    client.close()
    other.close()
  })

  it('drops a target that expires by the clock at the next token check', async () => {
    const quick = await startStreamServer(t.server.db, { tokenCheckMs: 150 })
    const deviceId = await deviceOf(880005)
    const { expires_at: was } = await t.server.db.selectFrom('devices').select('expires_at').where('id', '=', deviceId).executeTakeFirstOrThrow()
    try {
      const client = new StreamClient(quick.url)
      await client.opened()
      const ready = await connectCard(t.base, demo.token, 880002)
      client.send({ op: 'open', cardId: 880002, cardToken: ready.cardToken, preset: 'smooth', audio: false })
      await client.until(() => client.texts.some((m) => m.op === 'opened'), 'opened')
      client.send({ op: 'mirror', cardId: 880002, targets: [880005] })
      await client.until(() => mirroredMessages(client).length >= 1, 'mirrored')
      expect(mirroredMessages(client)[0]!.targets).toEqual([880005])
      await t.server.db.updateTable('devices').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', deviceId).execute()
      await client.until(() => mirroredMessages(client).length >= 2, 'the expired target dropped')
      expect(mirroredMessages(client)[1]).toEqual({ op: 'mirrored', cardId: 880002, targets: [], refused: [{ cardId: 880005, reason: 'expired' }] })
      client.close()
    } finally {
      await t.server.db.updateTable('devices').set({ expires_at: was }).where('id', '=', deviceId).execute()
      await quick.close()
    }
  })

  it('mirrors from an open card only, and validates the message', async () => {
    const client = new StreamClient(own.url)
    await client.opened()
    client.send({ op: 'mirror', cardId: 880001, targets: [880002] })
    await client.until(() => mirroredMessages(client).length >= 1, 'mirrored')
    expect(mirroredMessages(client)[0]).toEqual({ op: 'mirrored', cardId: 880001, targets: [], refused: [{ cardId: 880002, reason: 'unavailable' }] })
    // 61 targets: not a message the server takes (ignored, as every malformed message)
    client.ws.send(JSON.stringify({ op: 'mirror', cardId: 880001, targets: Array.from({ length: 61 }, (_, i) => 880100 + i) }))
    await new Promise((r) => setTimeout(r, 100))
    expect(mirroredMessages(client)).toHaveLength(1)
    client.close()
  })
})
