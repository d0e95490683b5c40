// Bench SharedWorker for baselines (ii) and (iii): one socket to the push source, the core's counter rule, and events
// handed to each tab either as one comlink proxied callback per event or as batches over a raw MessagePort.
import * as Comlink from 'comlink'
import { frameToEvent, initialBenchState, type BenchDelivered, type BenchState, type CounterForm } from './bench-store.ts'
import { frameId } from '../lib/frames.ts'
import { keepAliveFrame } from '../../worker/protocol/push-wire.ts'
import { now } from './clock.ts'

export interface BaselineApi {
  attachPort(port: MessagePort): BenchState
  attachCallback(callback: (delivered: BenchDelivered) => void): BenchState
  /** opens the one socket (idempotent); heartbeatMs as the core's keepAlive: on open and every interval. */
  open(url: string, heartbeatMs: number, form: CounterForm): Promise<void>
  /** [id, arrival time] of every bench frame since the last reset. */
  arrivals(): Array<[number, number]>
  reset(): void
  crossOriginIsolated(): boolean
}

// the tsconfig has no WebWorker lib; this is the part of SharedWorkerGlobalScope used here
declare const self: { crossOriginIsolated: boolean; addEventListener(type: 'connect', listener: (e: MessageEvent) => void): void }

let state: BenchState = initialBenchState
let form: CounterForm = 'increment'
const ports: MessagePort[] = []
const callbacks: Array<(delivered: BenchDelivered) => void> = []
let socket: Promise<void> | null = null
let arrivalTimes: number[] = []
let arrivalFrames: string[] = []
let pending: BenchDelivered[] = []
let flushQueued = false

const flush = (): void => {
  flushQueued = false
  const batch = pending
  pending = []
  for (const port of ports) port.postMessage(batch)
}

const onFrame = (text: string): void => {
  const next = frameToEvent(state, text, form)
  if (next === null) return
  state = next.state
  for (const callback of callbacks) void Promise.resolve(callback(next.delivered)).catch(() => undefined)
  if (ports.length > 0) {
    pending.push(next.delivered)
    if (!flushQueued) {
      flushQueued = true
      queueMicrotask(flush)
    }
  }
}

const api: BaselineApi = {
  attachPort(port) {
    ports.push(port)
    return state
  },
  attachCallback(callback) {
    callbacks.push(callback)
    return state
  },
  open(url, heartbeatMs, eventForm) {
    form = eventForm
    socket ??= new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url)
      ws.addEventListener('open', () => {
        ws.send(keepAliveFrame())
        setInterval(() => ws.send(keepAliveFrame()), heartbeatMs)
      })
      ws.addEventListener('message', (e) => {
        arrivalTimes.push(now())
        arrivalFrames.push(e.data as string)
        onFrame(e.data as string)
      })
      ws.addEventListener('open', () => resolve())
      ws.addEventListener('error', () => reject(new Error(`socket to ${url} failed`)))
    })
    return socket
  },
  arrivals() {
    const out: Array<[number, number]> = []
    arrivalFrames.forEach((frame, i) => {
      const id = frameId(frame)
      if (id > 0) out.push([id, arrivalTimes[i]])
    })
    return out
  },
  reset() {
    arrivalTimes = []
    arrivalFrames = []
  },
  crossOriginIsolated: () => self.crossOriginIsolated,
}

self.addEventListener('connect', (e) => Comlink.expose(api, e.ports[0]))
