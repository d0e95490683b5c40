// Part 5: the reference server's fan-out: 1000 concurrent /push sockets (node ws clients, one user) on 127.0.0.1,
// one broadcast through the real hub, delivery time per socket and the server process's RSS (it runs in a child).
import { performance } from 'node:perf_hooks'
import WebSocket from 'ws'
import type { BenchContext } from '../lib/context.ts'
import { DEMO_PHONE } from '../lib/reference-server.ts'
import type { PartOutput } from '../lib/result.ts'
import { round, summarize } from '../lib/stats.ts'

const now = (): number => performance.timeOrigin + performance.now()
const mb = (n: number): number => round(n / 1024 / 1024, 1)

export const runFanout = async (ctx: BenchContext): Promise<PartOutput> => {
  const server = ctx.server
  if (!server) throw new Error(`reference server not running: ${ctx.serverError}`)
  const clients = 1000
  const broadcasts = ctx.quick ? 3 : 10
  const { token, username } = await server.request<{ token: string; username: string }>({ kind: 'mintToken', phone: DEMO_PHONE })
  const wsBase = server.url.replace(/^http/, 'ws')
  const rssIdle = await server.rss()
  const sockets: WebSocket[] = []
  const received: number[][] = Array.from({ length: broadcasts }, () => [])
  try {
    ctx.log(`fanout: opening ${clients} sockets`)
    for (let i = 0; i < clients; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, clients - i) }, (_, j) => new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${wsBase}/push?deviceId=bench-${i + j}&username=${username}&Authorization=${token}`, { perMessageDeflate: false })
        ws.on('open', () => resolve())
        ws.on('error', reject)
        ws.on('message', (data) => {
          const t = now()
          const m = /fanout:(\d+(?:\.\d+)?)#(\d+)/.exec(data.toString())
          if (m) received[Number(m[2])].push(t - Number(m[1]))
        })
        sockets.push(ws)
      })))
    }
    await new Promise((r) => setTimeout(r, 500))
    const rssConnected = await server.rss()
    const live = (await server.pushStats()).live
    const sends: Array<{ sockets: number; sendMs: number }> = []
    for (let b = 0; b < broadcasts; b++) {
      const r = await server.request<{ sockets: number; sentAt: number; doneAt: number }>({ kind: 'stampedBroadcast', user: username, tag: String(b) })
      sends.push({ sockets: r.sockets, sendMs: r.doneAt - r.sentAt })
      const deadline = Date.now() + 5_000
      while (received[b].length < clients && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
      await new Promise((r) => setTimeout(r, 100))
    }
    const rssAfter = await server.rss()
    const all = received.flat()
    const last = received.map((r) => summarize(r))
    const s = summarize(all)
    return {
      tables: [
        {
          title: `Reference server fan-out: ${clients} sockets of one user, ${broadcasts} broadcasts (delivery = client receive - server stamp before hub.send)`,
          columns: ['sockets live', 'deliveries', 'missed', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'hub.send ms (median)', 'RSS idle MB', 'RSS 1000 sockets MB', 'RSS after MB'],
          rows: [[
            live, all.length, clients * broadcasts - all.length, round(s.p50), round(s.p95), round(s.p99), round(s.max),
            round(summarize(sends.map((x) => x.sendMs)).p50), mb(rssIdle), mb(rssConnected), mb(rssAfter),
          ]],
        },
        {
          title: 'Per broadcast',
          columns: ['#', 'delivered', 'p50 ms', 'p99 ms', 'max ms'],
          rows: last.map((x, i) => [i, x.n, round(x.p50), round(x.p99), round(x.max)]),
        },
      ],
      product: 'real',
      notes: [
        'Clock: performance.timeOrigin + performance.now() in the server child and in the bench process (same machine, same system clock).',
        'The 1000 clients share the bench process\'s one event loop, so the later sockets\' times include the client side reading the earlier ones: this is an upper bound for the server\'s fan-out.',
        'RSS is the whole server process (PGlite, the embedded Postgres, is most of the idle figure).',
      ],
      data: { live, rssIdle, rssConnected, rssAfter, summary: s, perBroadcast: last, sends },
    }
  } finally {
    for (const ws of sockets) ws.terminate()
  }
}
