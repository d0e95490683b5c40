// A bench-only push socket server for the baselines: broadcasts the same frames the reference server would send,
// answers keepAlive like it, and counts sockets and heartbeat frames (the server-side view of part 4).
import { WebSocketServer, type WebSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import { benchFrame } from './frames.ts'

export interface PushSource {
  readonly url: string
  readonly open: () => number
  readonly counters: () => { socketsOpened: number; socketsOpen: number; heartbeats: number }
  readonly resetCounters: () => void
  readonly broadcast: (frame: string) => void
  /** sends ids from..to, one frame per id, every intervalMs (0: as fast as the socket buffers allow). */
  readonly sendSeries: (from: number, count: number, intervalMs: number) => Promise<void>
  readonly close: () => Promise<void>
}

export const startPushSource = async (): Promise<PushSource> => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  const sockets = new Set<WebSocket>()
  let socketsOpened = 0
  let heartbeats = 0
  wss.on('connection', (ws) => {
    socketsOpened++
    sockets.add(ws)
    ws.on('close', () => sockets.delete(ws))
    ws.on('message', (data) => {
      const text = data.toString()
      if (text.includes('"keepAlive"')) {
        heartbeats++
        ws.send(text)
      }
    })
  })
  const broadcast = (frame: string): void => {
    for (const ws of sockets) ws.send(frame)
  }
  const sendSeries = async (from: number, count: number, intervalMs: number): Promise<void> => {
    for (let i = 0; i < count; i++) {
      broadcast(benchFrame(from + i))
      if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs))
      else if (i % 200 === 199) await new Promise((r) => setImmediate(r))
    }
  }
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/push`,
    open: () => sockets.size,
    counters: () => ({ socketsOpened, socketsOpen: sockets.size, heartbeats }),
    resetCounters: () => { socketsOpened = sockets.size; heartbeats = 0 },
    broadcast,
    sendSeries,
    close: () => new Promise<void>((resolve) => {
      for (const ws of sockets) ws.terminate()
      wss.close(() => resolve())
    }),
  }
}
