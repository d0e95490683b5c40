// The simulated device stream: a card token from connect opens it, taps open apps, keys navigate, and a reboot or
// a lost authorisation closes it with a code the viewer understands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { catalogue as c } from '../../../worker/protocol/catalogue.ts'
import { SIM_CLOSE, simIconCell, type SimFrame } from '../../../worker/protocol/devices.ts'
import { simStreamUrl } from '../../../src/features/devices/stream/simulated.ts'
import { startDeviceServer, type DeviceTestServer } from './harness.ts'
import { SIM_INPUT_LIMIT, SIM_MAX_VIEWERS_PER_USER } from '../../../server/devices/sim/stream.ts'
import { CLOSE_POLICY_VIOLATION } from '../../../server/http/socket-limits.ts'

let srv: DeviceTestServer
beforeAll(async () => {
  srv = await startDeviceServer({ realClock: true })
}, 60_000)
afterAll(() => srv?.close())

interface Client {
  ws: WebSocket
  next(pred: (f: SimFrame) => boolean): Promise<SimFrame>
  closed: Promise<number>
  send(msg: unknown): void
}

const open = async (token: string, userCardId: number): Promise<Client> => {
  const res = await srv.call(token, c.connect, { userCardId })
  expect(res.status).toBe(0)
  return openWith(userCardId, res.data.cardToken)
}

const openWith = (userCardId: number, cardToken: string): Client => {
  const ws = new WebSocket(simStreamUrl(srv.url, { userCardId, cardToken }))
  const frames: SimFrame[] = []
  const waiters: Array<{ pred: (f: SimFrame) => boolean; resolve: (f: SimFrame) => void }> = []
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString())
    if (msg.type !== 'frame') return
    frames.push(msg)
    for (const w of [...waiters]) if (w.pred(msg)) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve(msg)
    }
  })
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  return {
    ws,
    closed,
    send: (msg) => ws.send(JSON.stringify(msg)),
    next: (pred) => {
      const hit = frames.find(pred)
      if (hit) {
        frames.length = 0
        return Promise.resolve(hit)
      }
      frames.length = 0
      return new Promise((resolve) => waiters.push({ pred, resolve }))
    },
  }
}

const centre = (index: number) => {
  const cell = simIconCell(index, 'portrait')
  return { x: cell.x + cell.w / 2, y: cell.y + cell.h / 2 }
}

describe('simulated stream', () => {
  it('streams the home screen and opens the tapped app, whose counter then counts taps', async () => {
    const client = await open(srv.tokens.demo, 880001)
    const home = await client.next((f) => f.screen === 'home')
    expect(home.apps[2]!.name).toBe('计算器')
    expect(home.clock).toMatch(/^\d{2}:\d{2}:\d{2}$/)
    client.send({ type: 'touch', ...centre(2) })
    const opened = await client.next((f) => f.screen === 'app')
    expect(opened.openApp).toBe('calculator')
    client.send({ type: 'touch', x: 0.5, y: 0.5 })
    client.send({ type: 'text', text: '你好' })
    const typed = await client.next((f) => f.text === '你好')
    expect(typed.counter).toBe(1)
    client.send({ type: 'key', key: 'recents' })
    const recents = await client.next((f) => f.screen === 'recents')
    expect(recents.recents).toEqual(['calculator'])
    client.send({ type: 'key', key: 'home' })
    await client.next((f) => f.screen === 'home')
    client.send({ type: 'rotate' })
    expect((await client.next((f) => f.orientation === 'landscape')).orientation).toBe('landscape')
    client.ws.close()
  })

  it('answers pings with the same timestamp so the viewer can measure latency', async () => {
    const client = await open(srv.tokens.demo, 880002)
    await client.next(() => true)
    const pong = new Promise<unknown>((resolve) => client.ws.on('message', (d) => {
      const m = JSON.parse(d.toString())
      if (m.type === 'pong') resolve(m)
    }))
    client.send({ type: 'ping', t: 1234.5 })
    expect(await pong).toEqual({ type: 'pong', t: 1234.5 })
    client.ws.close()
  })

  it('closes a viewer that sends input faster than a person can (issue 11: each input answers with a frame)', async () => {
    const client = await open(srv.tokens.demo, 880002)
    await client.next(() => true)
    for (let i = 0; i < SIM_INPUT_LIMIT.burst * 4; i++) client.send({ type: 'ping', t: i })
    expect(await client.closed).toBe(CLOSE_POLICY_VIOLATION)
  })

  it('holds at most SIM_MAX_VIEWERS_PER_USER streams per user: one more closes the oldest (issue 11 finding 11)', async () => {
    const clients: Client[] = []
    for (let i = 0; i < SIM_MAX_VIEWERS_PER_USER; i++) {
      const client = await open(srv.tokens.demo, 880002)
      await client.next(() => true)
      clients.push(client)
    }
    const newest = await open(srv.tokens.demo, 880002)
    await newest.next(() => true)
    expect(await clients[0].closed).toBe(CLOSE_POLICY_VIOLATION)
    // the others stay open and keep streaming
    for (const client of [...clients.slice(1), newest]) expect(client.ws.readyState).toBe(WebSocket.OPEN)
    for (const client of [...clients.slice(1), newest]) client.ws.close()
  })

  it('refuses a socket whose card token does not belong to the card', async () => {
    const res = await srv.call(srv.tokens.demo, c.connect, { userCardId: 880001 })
    const client = openWith(880002, res.data.cardToken)
    expect(await client.closed).toBe(SIM_CLOSE.refused)
  })

  it('closes the stream with the restarting code when the device reboots', async () => {
    const client = await open(srv.tokens.demo, 880005)
    await client.next(() => true)
    await srv.call(srv.tokens.partner, c.rebootDevice, { userCardId: 880005 })
    expect(await client.closed).toBe(SIM_CLOSE.restarting)
  })
})
