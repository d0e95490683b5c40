// The /push websocket: authentication from the query, keepAlive answers, fan-out to every connection of a user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opsConnections, opsPush, runOps } from '../../../server/ops.ts'
import { loginToken, openSocket, pushUrl, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
let demo: { token: string; username: string }
let partner: { token: string; username: string }

const connect = async (user: { token: string; username: string }, deviceId = 'dev-1') => {
  const socket = openSocket(pushUrl(base, { deviceId, username: user.username, Authorization: user.token }))
  await socket.opened()
  return socket
}

beforeAll(async () => {
  // the load test below holds 500 sockets of one user: above the product's per-user cap (issue 11), on purpose here
  t = await startTestServer({ maxPushSocketsPerUser: 1000 })
  base = t.server.url
  demo = await loginToken(base, '13800138000')
  partner = await loginToken(base, '13700137000')
}, 60_000)
afterAll(() => t?.stop())

describe('push socket', () => {
  it('two connections of the same user both receive a pushed message, and connections counts 2', async () => {
    const a = await connect(demo, 'tab-a')
    const b = await connect(demo, 'tab-b')
    const other = await connect(partner)
    await a.until(() => t.server.hub.liveCount() === 3)
    expect(await runOps(['connections'], t.ops)).toContain('13800138000 2')
    const delivered = await opsPush(t.ops, '13800138000', 'sendCouponMsg', { content: '您获得一张优惠券' })
    expect(delivered).toBe(2)
    await a.until(() => a.frames.length > 0)
    await b.until(() => b.frames.length > 0)
    expect(a.frames[0]).toEqual({ type: 'sendCouponMsg', data: { content: '您获得一张优惠券' } })
    expect(b.frames[0]).toEqual(a.frames[0])
    await new Promise((r) => setTimeout(r, 100))
    expect(other.frames).toEqual([])
    a.close()
    b.close()
    other.close()
    await a.until(() => t.server.hub.liveCount() === 0)
    const report = await opsConnections(t.ops)
    expect(report.total).toBe(0)
    expect(report.users.find((u) => u.phone === '13800138000')).toMatchObject({ live: 0, opened: 2 })
  })

  it('a push addressed by username reaches the user too', async () => {
    const a = await connect(partner)
    expect(await opsPush(t.ops, 'partner', 'removeAuth', { userCardId: 880005, diskName: '已授权云手机' })).toBe(1)
    await a.until(() => a.frames.length > 0)
    expect(a.frames[0]).toEqual({ type: 'removeAuth', data: { userCardId: 880005, diskName: '已授权云手机' } })
    a.close()
  })

  it('a keepAlive frame is answered with a keepAlive frame and counted', async () => {
    const a = await connect(demo)
    const before = t.server.hub.stats().find((u) => u.username === 'demo')?.keepAlives ?? 0
    a.ws.send(JSON.stringify({ type: 'keepAlive', data: {} }))
    await a.until(() => a.frames.length > 0)
    expect(a.frames[0]).toMatchObject({ type: 'keepAlive' })
    expect(t.server.hub.stats().find((u) => u.username === 'demo')?.keepAlives).toBe(before + 1)
    a.close()
  })

  it('malformed frames are ignored and the socket keeps working', async () => {
    const a = await connect(demo)
    a.ws.send('not json at all')
    a.ws.send(JSON.stringify({ type: 42 }))
    a.ws.send(Buffer.from([1, 2, 3]), { binary: true })
    a.ws.send(JSON.stringify({ type: 'keepAlive', data: {} }))
    await a.until(() => a.frames.length > 0)
    expect(a.frames).toEqual([{ type: 'keepAlive', data: {} }])
    expect(a.closeCode).toBeNull()
    a.close()
  })

  it('a bad token is refused with close code 4401', async () => {
    const s = openSocket(pushUrl(base, { deviceId: 'x', username: 'demo', Authorization: 'bad-token' }))
    await s.until(() => s.closeCode !== null)
    expect(s.closeCode).toBe(4401)
  })

  it('a token of another user is refused with close code 4401', async () => {
    const s = openSocket(pushUrl(base, { deviceId: 'x', username: 'demo', Authorization: partner.token }))
    await s.until(() => s.closeCode !== null)
    expect(s.closeCode).toBe(4401)
  })

  it('a websocket on another path is refused without opening', async () => {
    const s = openSocket(`${base.replace(/^http/, 'ws')}/not-push?username=demo&Authorization=${demo.token}`)
    await expect(s.opened()).rejects.toThrow()
    expect(t.server.hub.liveCount()).toBe(0)
  })

  it('an unknown push type is rejected by ops without reaching anyone', async () => {
    await expect(opsPush(t.ops, '13800138000', 'notAType')).rejects.toThrow('未知的推送类型')
  })

  it('holds a thousand concurrent connections and reaches all of them', async () => {
    const sockets = await Promise.all(Array.from({ length: 1000 }, (_, i) => connect(i % 2 ? demo : partner, `bulk-${i}`)))
    expect(t.server.hub.liveCount()).toBe(1000)
    expect(await opsPush(t.ops, '13800138000', 'refreshCloudPhoneList')).toBe(500)
    await Promise.all(sockets.filter((_, i) => i % 2).map((s) => s.until(() => s.frames.length > 0)))
    sockets.forEach((s) => s.close())
    await sockets[0]!.until(() => t.server.hub.liveCount() === 0, 10_000)
  }, 30_000)
})
