// The one push socket writer of every delivery path: the product's core socket (redirected here by the bench's socket
// probe, bench/pages/ws-probe.ts) and the baselines' sockets all connect to it, so every path gets the same frame
// bytes at the same pacing. Answers keepAlive like the reference server and counts sockets, heartbeats and frames.
import { WebSocketServer, type WebSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { BENCH_PATH_PARAM, benchFrame } from './frames.ts'

export interface SeriesWrite {
  /** wall-aligned ms (performance.timeOrigin + now(), the browser's clock too) of the first and last frame written. */
  readonly firstWriteAt: number
  readonly lastWriteAt: number
  /** frames handed to open sockets, summed over sockets. */
  readonly written: number
}

export interface SeriesOptions {
  /** called after every frame of the series is written (i is 0-based), e.g. to kill a worker halfway. */
  readonly onProgress?: (i: number) => void
  /** only to the sockets of this delivery path (their URL's benchPath); every open socket when absent. */
  readonly only?: string
}

export interface PushSource {
  readonly url: string
  readonly open: () => number
  readonly counters: () => { socketsOpened: number; socketsOpen: number; heartbeats: number }
  readonly resetCounters: () => void
  /** sends ids from..from+count-1, one frame per id to every open socket (or options.only's), every intervalMs (0: as fast as it can). */
  readonly sendSeries: (from: number, count: number, intervalMs: number, options?: SeriesOptions) => Promise<SeriesWrite>
  /** resolves when at least n sockets are open (a reattached worker has reopened its socket). */
  readonly waitForSockets: (n: number, timeoutMs: number) => Promise<void>
  readonly close: () => Promise<void>
}

const now = (): number => performance.timeOrigin + performance.now()

export const startPushSource = async (): Promise<PushSource> => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  const sockets = new Set<WebSocket>()
  /** which delivery path a socket belongs to: the benchPath its URL carries (tabs of two paths may be open together). */
  const pathOf = new WeakMap<WebSocket, string | null>()
  let socketsOpened = 0
  let heartbeats = 0
  wss.on('connection', (ws, req) => {
    socketsOpened++
    sockets.add(ws)
    pathOf.set(ws, new URL(req.url ?? '/', 'ws://push-source').searchParams.get(BENCH_PATH_PARAM))
    ws.on('close', () => sockets.delete(ws))
    ws.on('error', () => sockets.delete(ws))
    ws.on('message', (data) => {
      const text = data.toString()
      if (text.includes('"keepAlive"')) {
        heartbeats++
        if (ws.readyState === ws.OPEN) ws.send(text)
      }
    })
  })
  const broadcast = (frame: string, only: string | undefined): number => {
    let sent = 0
    for (const ws of sockets) {
      if (ws.readyState !== ws.OPEN || (only !== undefined && pathOf.get(ws) !== only)) continue
      ws.send(frame)
      sent++
    }
    return sent
  }
  const sendSeries = async (from: number, count: number, intervalMs: number, options: SeriesOptions = {}): Promise<SeriesWrite> => {
    let firstWriteAt = 0
    let lastWriteAt = 0
    let written = 0
    for (let i = 0; i < count; i++) {
      const at = now()
      written += broadcast(benchFrame(from + i), options.only)
      if (i === 0) firstWriteAt = at
      lastWriteAt = at
      options.onProgress?.(i)
      if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs))
      else if (i % 200 === 199) await new Promise((r) => setImmediate(r))
    }
    return { firstWriteAt, lastWriteAt, written }
  }
  const waitForSockets = async (n: number, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs
    while (sockets.size < n) {
      if (Date.now() > deadline) throw new Error(`${sockets.size} push sockets open after ${timeoutMs / 1000} s, expected ${n}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/push`,
    open: () => sockets.size,
    counters: () => ({ socketsOpened, socketsOpen: sockets.size, heartbeats }),
    resetCounters: () => { socketsOpened = sockets.size; heartbeats = 0 },
    sendSeries,
    waitForSockets,
    close: () => new Promise<void>((resolve) => {
      for (const ws of sockets) ws.terminate()
      wss.close(() => resolve())
    }),
  }
}
