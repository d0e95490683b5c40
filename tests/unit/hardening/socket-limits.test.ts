// Issue 11 finding 11: the push sockets' limits. A peer sending faster than the limit is closed with 1008; a reader
// that stops reading is cut once it is PUSH_MAX_BUFFERED_BYTES behind (the server queues nothing unbounded for it);
// a user's sockets on one instance are capped, a new one past the cap closing the oldest.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setImmediate as tick } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Auth } from '../../../server/context.ts'
import { CLOSE_POLICY_VIOLATION } from '../../../server/http/socket-limits.ts'
import {
  createLocalSockets, MAX_PUSH_SOCKETS_PER_USER, PUSH_INPUT_LIMIT, PUSH_MAX_BUFFERED_BYTES, type LocalSockets,
} from '../../../server/push/local-sockets.ts'

const user = { id: 1, username: 'limits1', phone: '13800000001', userType: 1 }
const auth: Auth = {
  userFromToken: async (token) => (token === 'good-token' ? { ...user, token } : null),
  findUser: async () => user,
}

let http: Server
let local: LocalSockets
let url: string
beforeAll(async () => {
  local = createLocalSockets(auth)
  http = createServer((_req, res) => res.end())
  http.on('upgrade', (request, socket, head) => local.accept(request, socket, head))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/push?username=${user.username}&Authorization=good-token&deviceId=d`
})
afterAll(async () => {
  await local.closeAll(1001, 1_000)
  await new Promise<void>((resolve) => http.close(() => resolve()))
})

const open = async (): Promise<{ ws: WebSocket; closed: Promise<number> }> => {
  const ws = new WebSocket(url)
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  ws.on('error', () => undefined)
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('close', (code) => reject(new Error(`closed with ${code}`)))
  })
  return { ws, closed }
}

/** Waits until the instance counts `n` live sockets (registration follows the client's open by a tick). */
const liveCountReaches = async (n: number): Promise<void> => {
  for (let i = 0; i < 500 && local.liveCount() !== n; i++) await new Promise((r) => setTimeout(r, 10))
  expect(local.liveCount()).toBe(n)
}

describe('push socket limits', () => {
  it('answers keepAlives at the core\'s pace, and closes a peer that floods with 1008', async () => {
    const { ws, closed } = await open()
    const answered = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())))
    ws.send(JSON.stringify({ type: 'keepAlive' }))
    expect(JSON.parse(await answered)).toMatchObject({ type: 'keepAlive' })
    for (let i = 0; i < PUSH_INPUT_LIMIT.burst * 5; i++) ws.send(JSON.stringify({ type: 'keepAlive' }))
    expect(await closed).toBe(CLOSE_POLICY_VIOLATION)
    await liveCountReaches(0)
  })

  it('cuts a reader that stopped reading once it is far behind, and pushes stop counting it', async () => {
    const { ws, closed } = await open()
    await liveCountReaches(1)
    // the client stops reading: what the server sends piles up in the kernel, then in the server's own buffer
    ;(ws as unknown as { _socket: { pause(): void } })._socket.pause()
    const frame = JSON.stringify({ type: 'systemAnnouncementMsg', data: 'x'.repeat(64 * 1024) })
    let queued = 0
    let reached = 1
    while (reached === 1 && queued < 256 * 1024 * 1024) {
      reached = local.deliver(user.username, frame)
      queued += frame.length
      await tick()
    }
    expect(reached).toBe(0)
    expect(local.liveCount()).toBe(0)
    ;(ws as unknown as { _socket: { resume(): void } })._socket.resume()
    expect(await closed).toBe(1006)
    // what it held was far beyond the kernel's buffers and the cap, and far short of the whole stream
    expect(queued).toBeGreaterThan(PUSH_MAX_BUFFERED_BYTES)
  })

  it(`keeps at most ${MAX_PUSH_SOCKETS_PER_USER} sockets of a user: one more closes the oldest`, async () => {
    const sockets = []
    for (let i = 0; i < MAX_PUSH_SOCKETS_PER_USER; i++) sockets.push(await open())
    await liveCountReaches(MAX_PUSH_SOCKETS_PER_USER)
    const newest = await open()
    expect(await sockets[0]!.closed).toBe(CLOSE_POLICY_VIOLATION)
    await liveCountReaches(MAX_PUSH_SOCKETS_PER_USER)
    expect(newest.ws.readyState).toBe(WebSocket.OPEN)
    expect(local.deliver(user.username, JSON.stringify({ type: 'refreshCloudPhoneList', data: null }))).toBe(MAX_PUSH_SOCKETS_PER_USER)
    for (const s of [...sockets.slice(1), newest]) s.ws.close()
    await liveCountReaches(0)
  })
})
