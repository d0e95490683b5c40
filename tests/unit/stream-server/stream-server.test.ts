// The phone stream (server/devices/sim/stream-server.ts) against real sockets: a card token opens a card and the
// bytes are a decodable H.264 stream (metadata, config, keyframe first); scrcpy control messages change the phone and
// its picture; refusals, floods, kicks and rotation; viewers of one phone share one encoder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { markerCellSize } from '../../../worker/protocol/phone-screen.ts'
import { STREAM_LIMITS } from '../../../worker/protocol/stream.ts'
import { clusterDb } from '../../../server/cluster/tables.ts'
import { screenPool } from '../../../server/devices/sim/screen-pool.ts'
import { createPhoneLeases } from '../../../server/devices/sim/leases.ts'
import { appIconCenter, copyButton, COPY_TEXT, initialPhone } from '../../../server/devices/sim/phone.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'
import { connectCard, serializer, startStreamServer, StreamClient, touch, VideoReader, lumaDiff, type OwnStreamServer, deviceIdOf } from './support.ts'

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

/** a socket with the card open, its first picture decoded. */
const view = async (base: string, userCardId: number, token = demo.token, preset: 'smooth' | 'sd' | 'hd' = 'sd') => {
  const ready = await connectCard(t.base, token, userCardId)
  const client = new StreamClient(base)
  await client.opened()
  client.send({ op: 'open', cardId: userCardId, cardToken: ready.cardToken, preset, audio: false })
  const reader = new VideoReader()
  await client.until(() => {
    reader.feed(client.video(userCardId))
    return reader.frames.length > 0
  }, 'the first picture')
  return { client, reader, cardId: userCardId }
}

/** waits for a decoded frame showing the marker value. */
const frameWithMarker = async (v: Awaited<ReturnType<typeof view>>, marker: number) => {
  await v.client.until(() => {
    v.reader.feed(v.client.video(v.cardId))
    return v.reader.last()?.marker === marker
  }, `a frame with marker ${marker}`)
  return v.reader.last()!
}

const tap = (v: Awaited<ReturnType<typeof view>>, x: number, y: number) => {
  const { width, height } = v.reader.metas[v.reader.metas.length - 1]!
  const vx = Math.round((x * width) / (width < height ? 720 : 1280))
  const vy = Math.round((y * height) / (width < height ? 1280 : 720))
  v.client.control(v.cardId, touch(0, vx, vy, width, height))
  v.client.control(v.cardId, touch(1, vx, vy, width, height))
}

describe('the phone stream', () => {
  it('opens with a card token: opened, then metadata, config and a keyframe that decode to the preset\'s size', async () => {
    const v = await view(own.url, 880001)
    expect(v.client.texts[0]).toEqual({ op: 'opened', cardId: 880001, preset: 'sd' })
    expect(v.reader.kinds.slice(0, 3)).toEqual(['M', 'C', 'K'])
    expect(v.reader.metas[0]).toEqual({ width: 540, height: 960 })
    expect(v.reader.frames[0]).toMatchObject({ width: 540, height: 960 })
    // the marker's cells are where phone-screen.ts says: the top-left cell is black at inputSeq 0
    expect(markerCellSize(540, 960)).toBe(16)
    v.client.close()
    v.reader.close()
  })

  it('a tap on 计数器 opens it, a tap on the counter changes the picture and the marker counts each input', async () => {
    const v = await view(own.url, 880002)
    const deviceId = await deviceOf(880002)
    const start = own.stream.phoneState(deviceId)!.inputSeq
    const icon = appIconCenter(initialPhone, 'counter')!
    tap(v, icon.x, icon.y)
    const opened = await frameWithMarker(v, (start + 1) & 0xff)
    expect(own.stream.phoneState(deviceId)!.screen).toBe('counter')
    tap(v, 360, 700)
    const counted = await frameWithMarker(v, (start + 2) & 0xff)
    expect(own.stream.phoneState(deviceId)!.counter).toBe(1)
    // the digit in the middle of the screen changed (0 → 1)
    expect(lumaDiff(opened, counted, { x: 170, y: 380, width: 200, height: 200 })).toBeGreaterThan(3)
    v.client.close()
    v.reader.close()
  })

  it('typed text, Chinese included, and keys reach the 输入 app; an oversized text is ignored and counted', async () => {
    const v = await view(own.url, 880001)
    const deviceId = await deviceOf(880001)
    const icon = appIconCenter(initialPhone, 'input')!
    tap(v, icon.x, icon.y)
    v.client.control(v.cardId, serializer.injectText('你好 world') as Uint8Array)
    v.client.control(v.cardId, serializer.injectKeyCode({ action: 0, keyCode: 30, repeat: 0, metaState: 0 }) as Uint8Array) // b
    v.client.control(v.cardId, serializer.injectKeyCode({ action: 1, keyCode: 30, repeat: 0, metaState: 0 }) as Uint8Array)
    v.client.control(v.cardId, serializer.injectKeyCode({ action: 0, keyCode: 67, repeat: 0, metaState: 0 }) as Uint8Array) // DEL
    const rejected = own.stream.phoneState(deviceId)!.rejected
    v.client.control(v.cardId, serializer.injectText('长'.repeat(STREAM_LIMITS.maxTextBytes)) as Uint8Array)
    v.client.control(v.cardId, serializer.injectText('！') as Uint8Array)
    await v.client.until(() => own.stream.phoneState(deviceId)!.text.endsWith('！'), 'the text')
    const state = own.stream.phoneState(deviceId)!
    expect(state.screen).toBe('input')
    expect(state.text).toBe('你好 world！')
    expect(state.rejected).toBe(rejected + 1)
    v.client.close()
    v.reader.close()
  })

  it('set-clipboard with paste fills the field and is acked; get-clipboard and the 复制 button answer with clipboard messages', async () => {
    const v = await view(own.url, 880001)
    const deviceId = await deviceOf(880001)
    const before = own.stream.phoneState(deviceId)!.text
    const [message] = [serializer.setClipboard({ sequence: 7n, paste: true, content: '剪贴板内容' })].flat() as Uint8Array[]
    v.client.control(v.cardId, message!)
    v.client.control(v.cardId, Uint8Array.of(8, 0)) // get-clipboard (copy key none)
    await v.client.until(() => v.client.controlIn(v.cardId).length >= 2, 'the ack and the clipboard')
    const [ack, clip] = v.client.controlIn(v.cardId)
    expect([...ack!]).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 7])
    expect(clip![0]).toBe(0)
    expect(new DataView(clip!.buffer, clip!.byteOffset).getUint32(1, false)).toBe(Buffer.byteLength('剪贴板内容'))
    expect(Buffer.from(clip!.subarray(5)).toString('utf8')).toBe('剪贴板内容')
    expect(own.stream.phoneState(deviceId)!.text).toBe(`${before}剪贴板内容`)

    // 剪贴板 app, 复制: every viewer hears the new clipboard
    v.client.control(v.cardId, serializer.injectKeyCode({ action: 0, keyCode: 3, repeat: 0, metaState: 0 }) as Uint8Array) // HOME
    const icon = appIconCenter(own.stream.phoneState(deviceId)!, 'clipboard')!
    tap(v, icon.x, icon.y)
    const b = copyButton('portrait')
    tap(v, b.x + b.width / 2, b.y + b.height / 2)
    await v.client.until(() => v.client.controlIn(v.cardId).length >= 3, 'the copied text')
    expect(Buffer.from(v.client.controlIn(v.cardId)[2]!.subarray(5)).toString('utf8')).toBe(COPY_TEXT)
    v.client.close()
    v.reader.close()
  })

  it('rotation swaps width and height: new metadata, config and keyframe', async () => {
    const v = await view(own.url, 880002)
    const n = v.reader.metas.length
    v.client.control(v.cardId, serializer.rotateDevice() as Uint8Array)
    await v.client.until(() => {
      v.reader.feed(v.client.video(v.cardId))
      return v.reader.metas.length > n && v.reader.last()?.width === 960
    }, 'the landscape picture')
    expect(v.reader.metas[n]).toEqual({ width: 960, height: 540 })
    const at = v.reader.kinds.lastIndexOf('M')
    expect(v.reader.kinds.slice(at, at + 3)).toEqual(['M', 'C', 'K'])
    expect(v.reader.last()).toMatchObject({ width: 960, height: 540 })
    // a touch meant for the portrait picture is refused now
    const deviceId = await deviceOf(880002)
    const rejected = own.stream.phoneState(deviceId)!.rejected
    v.client.control(v.cardId, touch(0, 10, 900, 540, 960))
    v.client.control(v.cardId, serializer.rotateDevice() as Uint8Array)
    await v.client.until(() => own.stream.phoneState(deviceId)!.orientation === 'portrait', 'portrait again')
    expect(own.stream.phoneState(deviceId)!.rejected).toBe(rejected + 1)
    v.client.close()
    v.reader.close()
  })

  it('out-of-range touches and a zero video size are ignored and counted', async () => {
    const v = await view(own.url, 880001)
    const deviceId = await deviceOf(880001)
    const before = own.stream.phoneState(deviceId)!
    v.client.control(v.cardId, touch(0, 600, 100, 540, 960))
    v.client.control(v.cardId, touch(0, 10, 10, 0, 0))
    v.client.control(v.cardId, touch(0, 10, 1000, 540, 960))
    v.client.control(v.cardId, serializer.injectText('x') as Uint8Array) // a marker for "all of it was read"
    await v.client.until(() => own.stream.phoneState(deviceId)!.inputSeq === before.inputSeq + 1, 'the text')
    expect(own.stream.phoneState(deviceId)!.rejected).toBe(before.rejected + 3)
    expect(own.stream.phoneState(deviceId)!.touch).toBeNull()
    v.client.close()
    v.reader.close()
  })

  it('refuses a bad token, another user\'s token and a token of another card', async () => {
    const client = new StreamClient(own.url)
    await client.opened()
    const mine = await connectCard(t.base, demo.token, 880001)
    const theirs = await connectCard(t.base, member.token, 880006)
    client.send({ op: 'open', cardId: 880001, cardToken: 'nope', preset: 'sd', audio: false })
    client.send({ op: 'open', cardId: 880002, cardToken: mine.cardToken, preset: 'sd', audio: false })
    client.send({ op: 'open', cardId: 880001, cardToken: theirs.cardToken, preset: 'sd', audio: false })
    await client.until(() => client.texts.length >= 3, 'three answers')
    expect(client.texts).toEqual([
      { op: 'closed', cardId: 880001, reason: 'refused' },
      { op: 'closed', cardId: 880002, reason: 'refused' },
      { op: 'closed', cardId: 880001, reason: 'refused' },
    ])
    // control for a card this socket has not opened is dropped; ping answers
    client.control(880006, serializer.rotateDevice() as Uint8Array)
    client.send({ op: 'ping', t: 42 })
    await client.until(() => client.texts.length >= 4)
    expect(client.texts[3]).toEqual({ op: 'pong', t: 42 })
    expect(own.stream.phoneState(await deviceOf(880006))?.orientation ?? 'portrait').toBe('portrait')
    client.close()
  })

  it('two sockets on one phone share one screen (one encoder); a flood closes that card for the flooding socket only', async () => {
    const encodersBefore = screenPool().liveScreens()
    const deviceId = await deviceOf(880006)
    const a = await view(own.url, 880006, member.token)
    const b = await view(own.url, 880006, member.token)
    expect(own.stream.viewerCount(deviceId)).toBe(2)
    expect(own.stream.encoding(deviceId)).toBe(true)
    expect(screenPool().liveScreens() - encodersBefore).toBeLessThanOrEqual(1)
    const tapAt = touch(1, 10, 10, 540, 960) // an up without a down: read, counted against the limit, changes nothing
    for (let i = 0; i < STREAM_LIMITS.controlBurst + 20; i++) a.client.control(a.cardId, tapAt)
    await a.client.until(() => a.client.closedReason(a.cardId) !== null, 'the flood close')
    expect(a.client.closedReason(a.cardId)).toBe('flood')
    expect(a.client.closeCode).toBeNull()
    expect(own.stream.viewerCount(deviceId)).toBe(1)
    // the other socket keeps receiving: its next input shows
    const seq = own.stream.phoneState(deviceId)!.inputSeq
    b.client.control(b.cardId, serializer.injectText('b') as Uint8Array)
    await frameWithMarker(b, (seq + 1) & 0xff)
    expect(b.client.closedReason(b.cardId)).toBeNull()
    for (const v of [a, b]) {
      v.client.close()
      v.reader.close()
    }
  })

  it('a user holds at most STREAM_LIMITS.maxSocketsPerUser sockets: one more closes the oldest (1008)', async () => {
    const views: Array<Awaited<ReturnType<typeof view>>> = []
    for (let i = 0; i < STREAM_LIMITS.maxSocketsPerUser; i++) views.push(await view(own.url, 880006, member.token, 'smooth'))
    expect(views.every((v) => v.client.closeCode === null)).toBe(true)
    const extra = await view(own.url, 880006, member.token, 'smooth')
    await views[0]!.client.until(() => views[0]!.client.closeCode !== null, 'the oldest socket closed')
    expect(views[0]!.client.closeCode).toBe(1008)
    expect(views.slice(1).every((v) => v.client.closeCode === null)).toBe(true)
    expect(extra.client.closeCode).toBeNull()
    for (const v of [...views, extra]) {
      v.client.close()
      v.reader.close()
    }
  })

  it('a socket that views no phone is closed after the idle time', async () => {
    const idle = await startStreamServer(t.server.db, { idleSocketMs: 150 })
    try {
      const client = new StreamClient(idle.url)
      await client.opened()
      await client.until(() => client.closeCode !== null, 'the idle close')
      expect(client.closeCode).toBe(1000)
    } finally {
      await idle.close()
    }
  })

  it('a reboot through the API closes the card\'s channels with restarting on the real server; the socket stays open', async () => {
    const v = await view(t.base, 880002)
    const reboot = await api(t.base, 'GET', `${catalogue.rebootDevice.path}?userCardId=880002`, { token: demo.token })
    expect(reboot.body.status).toBe(0)
    await v.client.until(() => v.client.closedReason(880002) !== null, 'the kick')
    expect(v.client.closedReason(880002)).toBe('restarting')
    v.client.send({ op: 'ping', t: 1 })
    await v.client.until(() => v.client.texts.some((m) => m.op === 'pong'))
    v.client.close()
    v.reader.close()
  })
})

describe('two instances: one screen per phone, relayed', () => {
  it('a viewer on the instance that does not own the phone is served by relay from the owner', async () => {
    const db = t.server.db
    const secret = async () => 'relay-secret-of-the-test'
    const ids = ['relay-test-a', 'relay-test-b']
    const [a, b] = await Promise.all(ids.map((id) =>
      startStreamServer(db, { leases: createPhoneLeases(db, () => id), relaySecret: secret })))
    const cluster = clusterDb(db)
    await cluster.insertInto('server_instances').values([{ id: ids[0]!, url: a!.url, pid: 1 }, { id: ids[1]!, url: b!.url, pid: 2 }]).execute()
    try {
      const deviceId = await deviceOf(880001)
      const onA = await view(a!.url, 880001)
      const onB = await view(b!.url, 880001)
      expect(onB.client.texts[0]).toEqual({ op: 'opened', cardId: 880001, preset: 'sd' })
      expect(onB.reader.kinds.slice(0, 3)).toEqual(['M', 'C', 'K'])
      // one screen: made at a, b has no phone of its own
      expect(a!.stream.encoding(deviceId)).toBe(true)
      expect(b!.stream.encoding(deviceId)).toBe(false)
      expect(b!.stream.phoneState(deviceId)).toBeNull()
      // input through b reaches the phone at a; both viewers see its marker
      const seq = a!.stream.phoneState(deviceId)!.inputSeq
      onB.client.control(880001, serializer.injectText('经由中继') as Uint8Array)
      await frameWithMarker(onB, (seq + 1) & 0xff)
      await frameWithMarker(onA, (seq + 1) & 0xff)
      expect(a!.stream.phoneState(deviceId)!.inputSeq).toBe(seq + 1)
      // device messages come back through the relay
      onB.client.control(880001, Uint8Array.of(8, 0))
      await onB.client.until(() => onB.client.controlIn(880001).length > 0, 'the clipboard')
      // a kick at the owner reaches the relayed viewer
      a!.stream.kick(deviceId, 'accessRemoved')
      b!.stream.kick(deviceId, 'accessRemoved')
      await onB.client.until(() => onB.client.closedReason(880001) !== null, 'the kick')
      expect(onB.client.closedReason(880001)).toBe('accessRemoved')
      expect(onB.client.texts.filter((m) => m.op === 'closed')).toHaveLength(1)
      for (const v of [onA, onB]) {
        v.client.close()
        v.reader.close()
      }
    } finally {
      await Promise.all([a!.close(), b!.close()])
      await cluster.deleteFrom('server_instances').where('id', 'in', ids).execute()
    }
  })
})
