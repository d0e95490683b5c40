// Several instances over one database (PostgreSQL: two instances, LISTEN/NOTIFY between them; PGlite: the one
// instance, the same hub over the in-process bus): a push fired at any instance reaches every socket of the user on
// every instance once; server-side pushes, forced logouts, revoked tokens and the simulated streams' kicks cross
// instances; a phone's one screen is encoded by its lease holder and relayed to viewers on the other; ops
// connections sees every instance; a stopping instance closes its sockets with 1012 and leaves the registry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AndroidMotionEventAction } from '@yume-chan/scrcpy'
import { sql } from 'kysely'
import WebSocket from 'ws'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import type { ConnectReady } from '../../../worker/protocol/devices.ts'
import { STREAM_PATH } from '../../../worker/protocol/stream.ts'
import { HEARTBEAT_MS } from '../../../server/cluster/instances.ts'
import { clusterDb } from '../../../server/cluster/tables.ts'
import { devicesDb } from '../../../server/devices/tables.ts'
import { ANSWER_TIMEOUT_MS, CLOSE_SERVICE_RESTART } from '../../../server/push/hub.ts'
import { CLOSE_UNAUTHORIZED } from '../../../server/push/local-sockets.ts'
import { opsConnections, opsPhone, opsPush, runOps } from '../../../server/ops.ts'
import { databaseKind } from '../../support/test-database.ts'
import { connectCard, StreamClient, touch, VideoReader } from '../stream-server/support.ts'
import { api, loginToken, openSocket, pushUrl, startTestInstances, type TestInstances } from './helpers.ts'

const count = databaseKind() === 'postgres' ? 2 : 1
let t: TestInstances
/** the first and the last instance: two different processes' worth of state on PostgreSQL, the same one on PGlite. */
let a: TestInstances['servers'][number]
let b: TestInstances['servers'][number]
let demo: { token: string; username: string }
let partner: { token: string; username: string }

const connect = async (base: string, user: { token: string; username: string }, deviceId: string) => {
  const socket = openSocket(pushUrl(base, { deviceId, username: user.username, Authorization: user.token }))
  await socket.opened()
  return socket
}

const noSocketsLeft = async (): Promise<void> => {
  const deadline = Date.now() + 5_000
  while (!t.servers.every((s) => s.hub.liveCount() === 0)) {
    if (Date.now() > deadline) throw new Error('sockets of earlier tests still open')
    await new Promise((r) => setTimeout(r, 20))
  }
}

beforeAll(async () => {
  t = await startTestInstances(count)
  a = t.servers[0]!
  b = t.servers[count - 1]!
  demo = await loginToken(a.url, '13800138000')
  partner = await loginToken(b.url, '13700137000')
}, 120_000)
afterAll(() => t?.stop())

describe(`push over ${count} instance(s) on ${databaseKind()}`, () => {
  it('a push fired at either instance reaches every socket of the user on every instance, once each, in order', async () => {
    const onA = await connect(a.url, demo, 'tab-a')
    const onB = await connect(b.url, demo, 'tab-b')
    const other = await connect(b.url, partner, 'tab-p')
    expect(await opsPush(t.ops[0]!, '13800138000', 'sendCouponMsg', { content: '第一张' })).toBe(2)
    expect(await opsPush(t.ops[count - 1]!, 'demo', 'systemAnnouncementMsg', { content: '第二条' })).toBe(2)
    for (const s of [onA, onB]) {
      await s.until(() => s.frames.length >= 2)
      expect(s.frames).toEqual([
        { type: 'sendCouponMsg', data: { content: '第一张' } },
        { type: 'systemAnnouncementMsg', data: { content: '第二条' } },
      ])
    }
    // the partner's socket sits on the same instance as one of them and got nothing
    expect(await opsPush(t.ops[0]!, '13700137000', 'refreshCloudPhoneList')).toBe(1)
    await other.until(() => other.frames.length > 0)
    expect(other.frames).toEqual([{ type: 'refreshCloudPhoneList' }])
    for (const s of [onA, onB, other]) s.close()
  })

  it('pushes fired together at one instance reach a socket on the other in the order they were fired, once each', async () => {
    const s = await connect(b.url, demo, 'tab-order')
    const contents = Array.from({ length: 30 }, (_, i) => `第${i}条`)
    const counts = await Promise.all(contents.map((content) => a.hub.send('13800138000', { type: 'sendCouponMsg', data: { content } })))
    expect(counts).toEqual(contents.map(() => 1))
    await s.until(() => s.frames.length >= contents.length)
    expect(s.frames).toEqual(contents.map((content) => ({ type: 'sendCouponMsg', data: { content } })))
    s.close()
  })

  it('ops connections at either instance shows the sockets of every instance', async () => {
    await noSocketsLeft() // the earlier tests' sockets close asynchronously
    const onA = await connect(a.url, demo, 'tab-a')
    const onB = await connect(b.url, demo, 'tab-b')
    const report = await opsConnections(t.ops[count - 1]!)
    expect(report.instances.map((i) => i.id).sort()).toEqual(t.servers.map((s) => s.hub.instanceId).sort())
    expect(report.total).toBe(2)
    expect(report.users.find((u) => u.phone === '13800138000')?.live).toBe(2)
    for (const server of t.servers) {
      expect(report.instances.find((i) => i.id === server.hub.instanceId)?.total).toBe(server.hub.liveCount())
    }
    const text = await runOps(['connections'], t.ops[0]!)
    expect(text).toContain('13800138000 2')
    for (const server of t.servers) expect(text).toContain(`实例 ${server.hub.instanceId}（${server.url}`)
    onA.close()
    onB.close()
    await onA.until(() => t.servers.every((s) => s.hub.liveCount() === 0))
  })

  it('a transfer made through one instance refreshes both users\' lists on sockets held by the other', async () => {
    const demoSocket = await connect(a.url, demo, 'tab-a')
    const partnerSocket = await connect(a.url, partner, 'tab-p')
    const moved = await api(b.url, 'POST', catalogue.transferDevices.path, { token: demo.token, body: { userCardIds: [880001], phone: '13700137000' } })
    expect(moved.body.status).toBe(0)
    for (const s of [demoSocket, partnerSocket]) {
      await s.until(() => s.frames.length > 0)
      expect(s.frames).toEqual([{ type: 'refreshCloudPhoneList', data: null }])
    }
    demoSocket.close()
    partnerSocket.close()
  })

  it('an authorisation cancelled through one instance tells the grantee\'s socket on the other: removeAuth, then the refresh', async () => {
    const grantee = await connect(b.url, partner, 'tab-grantee')
    const record = await devicesDb(a.db).selectFrom('device_auth_records as r').innerJoin('devices as d', 'd.id', 'r.device_id')
      .select('r.id').where('d.user_card_id', '=', 880005).where('r.status', '=', 0).executeTakeFirstOrThrow()
    const cancelled = await api(a.url, 'PUT', catalogue.cancelPhoneAuth.path, { token: demo.token, body: { id: record.id } })
    expect(cancelled.body.status).toBe(0)
    await grantee.until(() => grantee.frames.length >= 2)
    expect(grantee.frames).toEqual([
      { type: 'removeAuth', data: { userCardId: 880005, diskName: '已授权云手机' } },
      { type: 'refreshCloudPhoneList', data: null },
    ])
    grantee.close()
  })

  it('a coupon code exchanged through one instance tells the user\'s socket on the other (sendCouponMsg)', async () => {
    const s = await connect(b.url, demo, 'tab-coupon')
    const exchanged = await api(a.url, 'POST', catalogue.exchangeActivationCode.path, { token: demo.token, body: { code: 'CPN2026SPRING01' } })
    expect(exchanged.body.status).toBe(0)
    await s.until(() => s.frames.length > 0)
    expect(s.frames).toEqual([{ type: 'sendCouponMsg', data: null }])
    s.close()
  })

  it('a forced logout at one instance closes the user\'s sockets on every instance with the given code', async () => {
    const onA = await connect(a.url, partner, 'tab-a')
    const onB = await connect(b.url, partner, 'tab-b')
    expect(await a.hub.disconnect('13700137000', 4000)).toBe(2)
    await onA.until(() => onA.closeCode !== null && onB.closeCode !== null)
    expect([onA.closeCode, onB.closeCode]).toEqual([4000, 4000])
  })

  it('a token revoked at one instance closes its sockets on every instance with 4401; the user\'s other sessions stay', async () => {
    const leaving = await loginToken(b.url, '13800138000')
    const onB = await connect(b.url, leaving, 'tab-leaving-b')
    const onA = await connect(a.url, leaving, 'tab-leaving-a')
    const staying = await connect(b.url, demo, 'tab-staying')
    // the logout visit at a revokes the token: b hears it on the bus (on PGlite a and b are one instance, same path)
    const visit = await api(a.url, 'POST', '/api/user/v5/visitDetailed/operationVisitDetailed', {
      token: leaving.token, body: { uuid: 'u', operationType: 2 },
    })
    expect(visit.body.status).toBe(0)
    await onB.until(() => onB.closeCode !== null && onA.closeCode !== null)
    expect([onB.closeCode, onA.closeCode]).toEqual([CLOSE_UNAUTHORIZED, CLOSE_UNAUTHORIZED])
    // the revoked sockets are gone at once on every instance: the next push reaches only the staying session
    expect(await a.hub.send('13800138000', { type: 'refreshCloudPhoneList', data: null })).toBe(1)
    await staying.until(() => staying.frames.length > 0)
    expect(staying.closeCode).toBeNull()
    // and a socket opened later with the revoked token is refused wherever it lands
    for (const server of t.servers) {
      const again = openSocket(pushUrl(server.url, { deviceId: 'late', username: leaving.username, Authorization: leaving.token }))
      await again.until(() => again.closeCode !== null)
      expect(again.closeCode).toBe(CLOSE_UNAUTHORIZED)
    }
    staying.close()
  })

  it('a device rebooted through one instance closes its phone stream channel on the other (restarting)', async () => {
    const member = await loginToken(a.url, '13500135000')
    const connected = await api<ConnectReady>(b.url, 'POST', catalogue.connect.path, { token: member.token, body: { userCardId: 880006 } })
    expect(connected.body.status).toBe(0)
    const viewer = new WebSocket(`${b.url.replace(/^http/, 'ws')}${STREAM_PATH}`)
    const texts: Array<{ op: string; reason?: string }> = []
    viewer.on('message', (data, binary) => { if (!binary) texts.push(JSON.parse(data.toString())) })
    await new Promise<void>((resolve, reject) => { viewer.once('open', () => resolve()); viewer.once('error', reject) })
    viewer.send(JSON.stringify({ op: 'open', cardId: 880006, cardToken: connected.body.data.cardToken, preset: 'smooth', audio: false }))
    const until = async (check: () => boolean) => { while (!check()) await new Promise((r) => setTimeout(r, 20)) }
    await until(() => texts.some((m) => m.op === 'opened'))
    const reboot = await api(a.url, 'GET', `${catalogue.rebootDevice.path}?userCardId=880006`, { token: member.token })
    expect(reboot.body.status).toBe(0)
    await until(() => texts.some((m) => m.op === 'closed'))
    expect(texts.find((m) => m.op === 'closed')?.reason).toBe('restarting')
    viewer.close()
  })

  it('viewers of one phone on two instances see the one screen the lease holder encodes, and a touch through either shows to both', { timeout: 60_000 }, async () => {
    const cardId = 880002 // 云手机-02 of demo (云手机-01 was transferred above)
    // each viewer connects through its own instance, as its tab would
    const x = { card: await connectCard(a.url, demo.token, cardId), socket: new StreamClient(a.url), video: new VideoReader() }
    const y = { card: await connectCard(b.url, demo.token, cardId), socket: new StreamClient(b.url), video: new VideoReader() }
    try {
      for (const v of [x, y]) {
        await v.socket.opened()
        v.socket.send({ op: 'open', cardId, cardToken: v.card.cardToken, preset: 'smooth', audio: false })
      }
      for (const v of [x, y]) {
        await v.socket.until(() => v.socket.texts.some((m) => m.op === 'opened'), 'opened', 15_000)
        await v.socket.until(() => (v.video.feed(v.socket.video(cardId)), v.video.frames.length > 0), 'a decoded frame', 15_000)
      }
      // one screen: one lease, held by a live instance, and exactly that instance encodes
      const leases = await sql<{ instance_id: string }>`
        select l.instance_id from device_stream_leases l join devices d on d.id = l.device_id where d.user_card_id = ${cardId}`.execute(a.db)
      expect(leases.rows).toHaveLength(1)
      const distinct = t.servers.filter((s, i) => t.servers.findIndex((o) => o.hub.instanceId === s.hub.instanceId) === i)
      const encoders: string[] = []
      for (const server of distinct) {
        if ((await opsPhone(t.ops[t.servers.indexOf(server)]!, cardId)).encoding) encoders.push(server.hub.instanceId)
      }
      expect(encoders).toEqual([leases.rows[0]!.instance_id])

      // a touch sent by Y through b reaches the one phone, and X sees it through a
      const { width, height } = x.video.last()!
      const before = x.video.last()!.marker
      for (const action of [AndroidMotionEventAction.Down, AndroidMotionEventAction.Up]) {
        y.socket.control(cardId, touch(action, Math.round(width / 2), Math.round(height * 0.9), width, height))
      }
      await x.socket.until(() => (x.video.feed(x.socket.video(cardId)), x.video.last()!.marker !== before), 'the touch in X\'s picture', 10_000)
      await y.socket.until(() => (y.video.feed(y.socket.video(cardId)), y.video.last()!.marker === x.video.last()!.marker), 'the same picture in Y', 10_000)
    } finally {
      for (const v of [x, y]) {
        v.socket.close()
        v.video.close()
      }
    }
  })

  it('a frame larger than one NOTIFY payload arrives whole', async () => {
    const s = await connect(a.url, demo, 'tab-big')
    const content = '公告'.repeat(6_000)
    expect(await opsPush(t.ops[count - 1]!, 'demo', 'systemAnnouncementMsg', { content })).toBe(1)
    await s.until(() => s.frames.length > 0)
    expect(s.frames).toEqual([{ type: 'systemAnnouncementMsg', data: { content } }])
    s.close()
  })

  it('an instance that died without leaving the registry holds a push up at most the answer timeout', { timeout: 60_000 }, async () => {
    const s = await connect(b.url, demo, 'tab-x')
    const db = clusterDb(a.db)
    await db.insertInto('server_instances').values({ id: 'dead00000000', url: 'http://127.0.0.1:9', pid: 1 }).execute()
    // taken as live from the next heartbeat on, as a crashed instance's fresh row would be
    await s.until(() => a.hub.liveInstances().has('dead00000000'), HEARTBEAT_MS * 3)
    try {
      const started = Date.now()
      expect(await opsPush(t.ops[0]!, 'demo', 'refreshCloudPhoneList')).toBe(1)
      const took = Date.now() - started
      expect(took).toBeGreaterThanOrEqual(ANSWER_TIMEOUT_MS - 50)
      expect(took).toBeLessThan(ANSWER_TIMEOUT_MS + 3_000)
      await s.until(() => s.frames.length > 0)
    } finally {
      await db.deleteFrom('server_instances').where('id', '=', 'dead00000000').execute()
      await s.until(() => !a.hub.liveInstances().has('dead00000000'), HEARTBEAT_MS * 3)
      s.close()
    }
  })

  // last: it stops an instance
  it('a stopping instance closes its push sockets with 1012 (reconnect) and leaves the registry', async () => {
    const s = await connect(b.url, demo, 'tab-last')
    const stillUp = count > 1 ? await connect(a.url, demo, 'tab-stays') : null
    await b.close()
    await s.until(() => s.closeCode !== null)
    expect(s.closeCode).toBe(CLOSE_SERVICE_RESTART)
    if (stillUp) {
      // the others hear of the leaving on the bus
      await stillUp.until(() => !a.hub.liveInstances().has(b.hub.instanceId))
      expect((await opsConnections(t.ops[0]!)).instances.map((i) => i.id)).toEqual([a.hub.instanceId])
      const started = Date.now()
      expect(await opsPush(t.ops[0]!, 'demo', 'refreshCloudPhoneList')).toBe(1)
      expect(Date.now() - started).toBeLessThan(ANSWER_TIMEOUT_MS)
      stillUp.close()
    } else {
      expect(await clusterDb(a.db).selectFrom('server_instances').select('id').execute().catch(() => 'closed')).toBe('closed')
    }
  })
})
