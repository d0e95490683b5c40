// SimulatedStream: the reference server's simulated device over a websocket on the API origin. Frames are small
// scenes drawn on a canvas; taps (normalised), keys, text, rotation and quality go back; pings measure latency.
import * as Schema from 'effect/Schema'
import { SIM_CLOSE as SIM_CLOSE_CODES, SIM_STREAM_PATH, SimServerMessage, type ConnectReady, type SimFrame, type SimInput } from '../../../../worker/protocol/devices.ts'
import { drawSimFrame, QUALITY_SCALE, simScreenSize } from './sim-draw.ts'
import type { DeviceStream, StreamStats, StreamStatus } from './types.ts'

const decode = Schema.decodeUnknownOption(SimServerMessage)
const PING_MS = 1000

export const simStreamUrl = (origin: string, r: Pick<ConnectReady, 'userCardId' | 'cardToken'>): string => {
  const url = new URL(SIM_STREAM_PATH, origin)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  url.search = new URLSearchParams({ userCardId: String(r.userCardId), cardToken: r.cardToken }).toString()
  return url.toString()
}

export const createSimulatedStream = (result: ConnectReady, origin: string): DeviceStream => {
  const statsListeners = new Set<(s: StreamStats) => void>()
  const statusListeners = new Set<(s: StreamStatus) => void>()
  let ws: WebSocket | null = null
  let canvas: HTMLCanvasElement | null = null
  let last: SimFrame | null = null
  let latencyMs: number | null = null
  let frameTimes: number[] = []
  let pingTimer: ReturnType<typeof setInterval> | null = null
  let closedByUs = false

  const emitStatus = (s: StreamStatus) => statusListeners.forEach((l) => l(s))
  const emitStats = () => {
    const now = performance.now()
    frameTimes = frameTimes.filter((t) => now - t < 1000)
    const stats = { latencyMs, fps: frameTimes.length }
    statsListeners.forEach((l) => l(stats))
  }
  const send = (input: SimInput) => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(input))
  }

  const draw = (f: SimFrame) => {
    if (!canvas) return
    const size = simScreenSize(f.orientation)
    const scale = QUALITY_SCALE[f.quality] * Math.min(2, window.devicePixelRatio || 1)
    const pw = Math.round(size.w * scale)
    const ph = Math.round(size.h * scale)
    if (canvas.width !== pw || canvas.height !== ph) {
      canvas.width = pw
      canvas.height = ph
    }
    canvas.dataset.orientation = f.orientation
    canvas.dataset.screen = f.screen
    canvas.dataset.openApp = f.openApp ?? ''
    canvas.dataset.counter = String(f.counter)
    canvas.dataset.text = f.text
    canvas.dataset.quality = f.quality
    canvas.dataset.clock = f.clock
    const g = canvas.getContext('2d')
    if (!g) return
    g.setTransform(scale, 0, 0, scale, 0, 0)
    drawSimFrame(g, f, size.w, size.h)
  }

  const open = () => {
    ws = new WebSocket(simStreamUrl(origin, result))
    emitStatus({ kind: 'opening' })
    ws.addEventListener('open', () => {
      emitStatus({ kind: 'live' })
      pingTimer = setInterval(() => send({ type: 'ping', t: performance.now() }), PING_MS)
      send({ type: 'ping', t: performance.now() })
    })
    ws.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return
      let raw: unknown
      try {
        raw = JSON.parse(event.data)
      } catch {
        return
      }
      const msg = decode(raw)
      if (msg._tag === 'None') return
      if (msg.value.type === 'pong') {
        latencyMs = Math.round(performance.now() - msg.value.t)
        emitStats()
        return
      }
      last = msg.value
      frameTimes.push(performance.now())
      draw(msg.value)
      emitStats()
    })
    ws.addEventListener('close', (event) => {
      if (pingTimer) clearInterval(pingTimer)
      pingTimer = null
      if (closedByUs) return
      const reason = event.code === SIM_CLOSE_CODES.restarting ? 'restarting'
        : event.code === SIM_CLOSE_CODES.accessRemoved ? 'accessRemoved'
        : event.code === SIM_CLOSE_CODES.refused ? 'refused' : 'lost'
      emitStatus({ kind: 'closed', reason })
    })
  }

  const onPointer = (event: PointerEvent) => {
    if (!canvas || !last) return
    const rect = canvas.getBoundingClientRect()
    const x = (event.clientX - rect.left) / rect.width
    const y = (event.clientY - rect.top) / rect.height
    if (x < 0 || x > 1 || y < 0 || y > 1) return
    send({ type: 'touch', x, y })
  }

  return {
    mode: 'simulated',
    capabilities: { keys: true, rotate: true, quality: true, text: true, stats: true },
    mount(container) {
      if (canvas) return
      canvas = document.createElement('canvas')
      canvas.className = 'viewer-canvas'
      canvas.dataset.testid = 'sim-canvas'
      canvas.addEventListener('pointerdown', onPointer)
      container.appendChild(canvas)
      open()
    },
    key: (key) => send({ type: 'key', key }),
    rotate: () => send({ type: 'rotate' }),
    setQuality: (quality) => send({ type: 'quality', quality }),
    sendText: (text) => send({ type: 'text', text }),
    onStats(listener) {
      statsListeners.add(listener)
      return () => statsListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    close() {
      closedByUs = true
      if (pingTimer) clearInterval(pingTimer)
      ws?.close()
      canvas?.remove()
      canvas = null
      statsListeners.clear()
      statusListeners.clear()
    },
  }
}
