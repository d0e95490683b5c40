// Part 12: the reference server's memory while phones are dragged (issue 41 finding 1). The sixty-phone account opens
// 8 phones at 高清 on one stream socket each and drags a finger on all of them at about 90 moves a second (a browser's
// pointermove rate, as a client that does not coalesce would send them); the server's RSS is read from /proc every
// 250 ms. Idle: the same 8 phones open and still. Goal: RSS p99 while dragged ≤ 1.5x idle (docs/hardening.md, the
// stream's RSS budget).
import { readFileSync } from 'node:fs'
import { AndroidMotionEventAction, ScrcpyControlMessageSerializer, ScrcpyOptionsLatest } from '@yume-chan/scrcpy'
import WebSocket from 'ws'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { encodeChannelFrame, STREAM_KIND, STREAM_PATH } from '../../worker/protocol/stream.ts'
import type { BenchContext } from '../lib/context.ts'
import { DEMO_PASSWORD, FLEET_PHONE } from '../lib/reference-server.ts'
import { check, type PartOutput } from '../lib/result.ts'
import { round, summarize } from '../lib/stats.ts'

const PHONES = 8
const MOVES_PER_SECOND = 90
const SAMPLE_MS = 250
const serializer = new ScrcpyControlMessageSerializer(new ScrcpyOptionsLatest({}))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const rssMiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

const touch = (action: AndroidMotionEventAction, x: number, y: number) =>
  serializer.injectTouch({ action, pointerId: 1n, pointerX: x, pointerY: y, videoWidth: 720, videoHeight: 1280, pressure: 1, actionButton: 0, buttons: 0 }) as Uint8Array

const client = (base: string) => {
  const headers = { client: '7', versionName: '5.9.2', merchantSign: 'SPW', 'content-type': 'application/json' }
  const post = async (path: string, body: unknown, token?: string) =>
    (await (await fetch(base + path, { method: 'POST', headers: token ? { ...headers, Authorization: token } : headers, body: JSON.stringify(body) })).json()) as { status: number; data: any }
  return {
    async login(phone: string): Promise<string> {
      const forge = (await import('node-forge')).default
      const { md5Hex } = await import('../../server/crypto/password.ts')
      const pem = (await post('/api/user/v1/client/login/getPbKey', {})).data as string
      const password = forge.util.encode64(forge.pki.publicKeyFromPem(pem).encrypt(md5Hex(DEMO_PASSWORD), 'RSAES-PKCS1-V1_5'))
      return (await post('/api/user/v1/client/login', { phone, password, client: 7, uuid: 'bench-stream-memory' })).data.token as string
    },
    async usableCards(token: string): Promise<number[]> {
      const r = await fetch(`${base}/api/resources/v6/client/device/info/getDeviceList`, { headers: { ...headers, Authorization: token } })
      const list = ((await r.json()) as { data: Array<{ userCardId: number; validTime: number }> }).data
      return list.filter((d) => d.validTime > 0).map((d) => d.userCardId)
    },
    cardToken: async (token: string, userCardId: number) => (await post(catalogue.connect.path, { userCardId }, token)).data.cardToken as string,
  }
}

/** a socket with the card open at 高清; resolves once its first video arrived. */
const openPhone = (base: string, cardId: number, cardToken: string): Promise<WebSocket> => new Promise((resolve, reject) => {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${STREAM_PATH}`, { perMessageDeflate: false })
  const timer = setTimeout(() => reject(new Error(`phone ${cardId}: no picture in 20 s`)), 20_000)
  ws.on('open', () => ws.send(JSON.stringify({ op: 'open', cardId, cardToken, preset: 'hd', audio: false })))
  ws.on('message', (data, isBinary) => {
    if (!isBinary) {
      const m = JSON.parse(data.toString()) as { op: string; reason?: string }
      if (m.op === 'closed') reject(new Error(`phone ${cardId}: closed ${m.reason}`))
      return
    }
    clearTimeout(timer)
    resolve(ws)
  })
  ws.on('error', reject)
})

const sampleRss = async (pid: number, ms: number): Promise<number[]> => {
  const samples: number[] = []
  const end = Date.now() + ms
  while (Date.now() < end) {
    samples.push(rssMiB(pid))
    await sleep(SAMPLE_MS)
  }
  return samples
}

export const runStreamMemory = async (ctx: BenchContext): Promise<PartOutput> => {
  if (!ctx.server) throw new Error(`reference server not running: ${ctx.serverError}`)
  const { url, pid } = ctx.server
  const dragMs = ctx.quick ? 15_000 : 60_000
  const api = client(url)
  const token = await api.login(FLEET_PHONE)
  const cards = (await api.usableCards(token)).slice(0, PHONES)
  const sockets: WebSocket[] = []
  try {
    for (const cardId of cards) sockets.push(await openPhone(url, cardId, await api.cardToken(token, cardId)))
    ctx.log(`stream memory: ${cards.length} phones open at hd, idle`)
    await sleep(2_000)
    const idle = summarize(await sampleRss(pid, 5_000))
    ctx.log(`stream memory: dragging for ${dragMs / 1000} s`)
    for (const [i, ws] of sockets.entries()) ws.send(encodeChannelFrame(STREAM_KIND.control, cards[i]!, touch(AndroidMotionEventAction.Down, 360, 600)))
    let step = 0
    const mover = setInterval(() => {
      step += 1
      const y = 400 + ((step * 7) % 500)
      for (const [i, ws] of sockets.entries()) ws.send(encodeChannelFrame(STREAM_KIND.control, cards[i]!, touch(AndroidMotionEventAction.Move, 360, y)))
    }, 1000 / MOVES_PER_SECOND)
    let dragged: number[]
    try {
      dragged = await sampleRss(pid, dragMs)
    } finally {
      clearInterval(mover)
    }
    for (const [i, ws] of sockets.entries()) ws.send(encodeChannelFrame(STREAM_KIND.control, cards[i]!, touch(AndroidMotionEventAction.Up, 360, 600)))
    const busy = summarize(dragged)
    const ratio = round(busy.p99 / idle.p50, 2)
    return {
      tables: [{
        title: `Reference server RSS (MiB), ${cards.length} phones at 高清, each dragged at ${MOVES_PER_SECOND} moves/s for ${dragMs / 1000} s`,
        columns: ['phase', 'samples', 'p50', 'p99', 'max', 'x idle p50 (p99)'],
        rows: [
          ['idle (open, no input)', idle.n, round(idle.p50, 0), round(idle.p99, 0), round(idle.max, 0), 1],
          ['dragged', busy.n, round(busy.p50, 0), round(busy.p99, 0), round(busy.max, 0), ratio],
        ],
      }],
      targets: [check('stream memory: RSS p99 dragged / idle', '≤ 1.5x', ratio, 'x', (v) => v <= 1.5)],
      product: 'real',
      notes: [`RSS of the server process (/proc/${'<pid>'}/status VmRSS) every ${SAMPLE_MS} ms; the quick run drags for 15 s, the full one for 60 s.`],
      data: { idle, busy, cards },
    }
  } finally {
    for (const ws of sockets) ws.terminate()
  }
}
