// Injected in front of the product worker entry by the bench page server: stamps every frame at the moment it
// reaches the core's socket (before the core's own listener runs), and hands the stamps out over a BroadcastChannel.
import { frameId } from '../lib/frames.ts'
import { now } from './clock.ts'

let times: number[] = []
let frames: string[] = []
const opened: string[] = []

const Native = globalThis.WebSocket
class ProbedWebSocket extends Native {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols)
    opened.push(String(url))
    this.addEventListener('message', (e) => {
      times.push(now())
      frames.push(e.data as string)
    })
  }
}
globalThis.WebSocket = ProbedWebSocket

const channel = new BroadcastChannel('bench-ws-probe')
channel.onmessage = (e: MessageEvent<{ ask: 'arrivals' | 'reset' | 'info'; reply: string }>) => {
  const { ask, reply } = e.data
  if (ask === 'reset') {
    times = []
    frames = []
    return channel.postMessage({ reply, value: null })
  }
  if (ask === 'info') return channel.postMessage({ reply, value: { crossOriginIsolated: self.crossOriginIsolated, opened } })
  const value: Array<[number, number]> = []
  frames.forEach((frame, i) => {
    const id = frameId(frame)
    if (id > 0) value.push([id, times[i]])
  })
  channel.postMessage({ reply, value })
}
