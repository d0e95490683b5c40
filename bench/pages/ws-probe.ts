// Injected in front of the product worker entry by the bench page server: points the core's push socket at the
// bench push source (the one writer that feeds every path, bench/lib/push-source.ts), stamps every frame at the moment
// it reaches the core's socket (before the core's own handler runs), and hands the stamps out over a BroadcastChannel.
import { PUSH_PATH } from '../../worker/protocol/push-wire.ts'
import { BENCH_PATH_PARAM, frameId } from '../lib/frames.ts'
import { now } from './clock.ts'

// replaced at build time by the bench page server (bench/lib/bench-pages.ts) with the push source's ws:// URL
const PUSH_SOURCE_URL: string = 'bench-push-source-url'

let times: number[] = []
let frames: string[] = []
const opened: string[] = []
const instance = crypto.randomUUID()

// the chaos part's core talks to the real server's push socket (its own server serves the pages, bench/parts/chaos.ts)
const realPush = ((self as { name?: string }).name ?? '').includes('chaos')

const redirected = (url: string | URL): string | URL => {
  if (realPush) return url
  const target = new URL(String(url), self.location.href)
  if (target.pathname !== PUSH_PATH || !PUSH_SOURCE_URL.startsWith('ws')) return url
  const source = new URL(PUSH_SOURCE_URL)
  source.search = target.search
  // the push source tells the product's sockets from a baseline's opened beside them (bench/lib/push-source.ts); the
  // dedicated fallback's cores say product too (that path never runs beside the shared one)
  source.searchParams.set(BENCH_PATH_PARAM, 'product')
  return source.toString()
}

const Native = globalThis.WebSocket
class ProbedWebSocket extends Native {
  constructor(url: string | URL, protocols?: string | string[]) {
    const to = redirected(url)
    super(to, protocols)
    opened.push(String(to))
  }
}
// The stamp is taken inside the core's own `onmessage` handler, before it runs, not in a listener of its own: a second
// listener is one more call into the worker's JS per frame, which the baselines' workers (one listener that stamps and
// then handles) and the product in production do not pay. A core that stopped using `onmessage` would show up as
// frames without an arrival time (the dispatch table's "missing" column), not as silently wrong figures.
const nativeOnMessage = Object.getOwnPropertyDescriptor(Native.prototype, 'onmessage')!
Object.defineProperty(ProbedWebSocket.prototype, 'onmessage', {
  configurable: true,
  get(this: WebSocket) {
    return nativeOnMessage.get!.call(this)
  },
  set(this: WebSocket, handler: ((this: WebSocket, e: MessageEvent) => unknown) | null) {
    nativeOnMessage.set!.call(this, handler === null ? null : function (this: WebSocket, e: MessageEvent) {
      times.push(now())
      frames.push(e.data as string)
      return handler.call(this, e)
    })
  },
})
globalThis.WebSocket = ProbedWebSocket

export type ProbeAsk = 'arrivals' | 'reset' | 'info'

const channel = new BroadcastChannel('bench-ws-probe')
const ASKS: ReadonlySet<unknown> = new Set<ProbeAsk>(['arrivals', 'reset', 'info'])

channel.onmessage = (e: MessageEvent<{ ask?: ProbeAsk; reply: string }>) => {
  const { ask, reply } = e.data
  // the dedicated fallback runs a probe per tab: another probe's reply on this channel is not an ask (answering it
  // would echo between the probes without end)
  if (!ASKS.has(ask)) return
  if (ask === 'reset') {
    times = []
    frames = []
    return channel.postMessage({ reply, instance, value: null })
  }
  if (ask === 'info') return channel.postMessage({ reply, instance, value: { crossOriginIsolated: self.crossOriginIsolated, opened } })
  const value: Array<[number, number]> = []
  frames.forEach((frame, i) => {
    const id = frameId(frame)
    if (id > 0) value.push([id, times[i]])
  })
  channel.postMessage({ reply, instance, value })
}
