// Bench SharedWorker for baselines (ii) and (iii): one socket, the same counter projection as the core, and events
// handed to each tab either as one comlink proxied callback per event or as batches over a raw MessagePort.
import * as Comlink from 'comlink'
import type { Delivered } from '../../worker/protocol/events.ts'
import { frameToEvent, reduce, type BenchState } from './bench-store.ts'
import { frameId } from '../lib/frames.ts'
import { keepAliveFrame } from '../../worker/protocol/push.ts'
import { now } from './clock.ts'

export interface BaselineApi {
  attachPort(port: MessagePort): BenchState
  attachCallback(callback: (delivered: Delivered) => void): BenchState
  /** opens the one socket (idempotent); heartbeatMs as the core's keepAlive: on open and every interval. */
  open(url: string, heartbeatMs: number): Promise<void>
  /** [id, arrival time] of every bench frame since the last reset. */
  arrivals(): Array<[number, number]>
  reset(): void
  crossOriginIsolated(): boolean
}

// the tsconfig has no WebWorker lib; this is the part of SharedWorkerGlobalScope used here
declare const self: { crossOriginIsolated: boolean; addEventListener(type: 'connect', listener: (e: MessageEvent) => void): void }

let state: BenchState = { seq: 0, cardCoupon: { my: 0, activationCode: 0, coupon: 0 } }
const ports: MessagePort[] = []
const callbacks: Array<(delivered: Delivered) => void> = []
let socket: Promise<void> | null = null
let arrivalTimes: number[] = []
let arrivalFrames: string[] = []
let pending: Delivered[] = []
let flushQueued = false

const flush = (): void => {
  flushQueued = false
  const batch = pending
  pending = []
  for (const port of ports) port.postMessage(batch)
}

const onFrame = (text: string): void => {
  const delivered = frameToEvent(state, text)
  if (delivered === null) return
  state = reduce(state, delivered)
  for (const callback of callbacks) void Promise.resolve(callback(delivered)).catch(() => undefined)
  if (ports.length > 0) {
    pending.push(delivered)
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
  open(url, heartbeatMs) {
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
