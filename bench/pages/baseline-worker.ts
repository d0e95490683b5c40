// Bench SharedWorker for baselines (ii) and (iii): one socket, the same counter projection as the core, and events
// handed to each tab either as one comlink proxied callback per event or as batches over a raw MessagePort.
import * as Comlink from 'comlink'
import type { CardCouponCounters, Delivered } from '../../worker/protocol/events.ts'
import { frameId } from '../lib/frames.ts'
import { now } from './clock.ts'

export interface BaselineSnapshot {
  readonly seq: number
  readonly counters: CardCouponCounters
}

export interface BaselineApi {
  attachPort(port: MessagePort): BaselineSnapshot
  attachCallback(callback: (delivered: Delivered) => void): BaselineSnapshot
  open(url: string): Promise<void>
  /** [id, arrival time] of every bench frame since the last reset. */
  arrivals(): Array<[number, number]>
  reset(): void
  crossOriginIsolated(): boolean
}

declare const self: SharedWorkerGlobalScope

let seq = 0
let counters: CardCouponCounters = { my: 0, activationCode: 0, coupon: 0 }
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
  if (!text.includes('"sendCouponMsg"')) return
  counters = { ...counters, my: counters.my + 1, coupon: counters.coupon + 1 }
  const delivered: Delivered = { seq: ++seq, event: { _tag: 'CardCouponChanged', counters } }
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
    return { seq, counters }
  },
  attachCallback(callback) {
    callbacks.push(callback)
    return { seq, counters }
  },
  open(url) {
    socket ??= new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url)
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

self.addEventListener('connect', (e) => Comlink.expose(api, (e as MessageEvent).ports[0]))
