// The tap-to-pixels baseline page (bench part 9, bench/pages/phone.html): a canvas drawn by the REAL product decoder
// worker (src/features/devices/stream/decoder-worker.ts, probe on), fed by a worker of this page that owns the phone
// stream socket itself (phone-baseline-worker.ts) instead of the core. Pointer input becomes the same scrcpy touch
// messages the product's viewer sends; the canvas carries data-testid=phone-canvas and dispatches 'phone-marker' like
// the product's, so the bench drives and reads both paths the same way.
// Query: ws (stream socket URL), cardId, token (a card token from connect), preset.
import { AndroidMotionEventAction, ScrcpyControlMessageSerializer, ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy'
import type { DecoderIn, DecoderOut } from '../../src/features/devices/stream/decoder-messages.ts'
import type { StreamPreset } from '../../worker/protocol/stream.ts'
import type { BaselineSocketIn, BaselineSocketOut } from './phone-baseline-worker.ts'

export interface PhoneBaseline {
  readonly opened: () => StreamPreset | null
  readonly closed: () => string | null
  readonly setPreset: (preset: StreamPreset) => void
  readonly close: () => void
}
declare global {
  interface Window {
    __phoneBaseline?: PhoneBaseline
  }
}

const MOUSE_POINTER_ID = 0xffff_ffff_ffff_ffffn
const q = new URLSearchParams(location.search)
const serializer = new ScrcpyControlMessageSerializer(new ScrcpyOptions3_3_1({ control: true, clipboardAutosync: true }))

const canvas = document.createElement('canvas')
canvas.dataset.testid = 'phone-canvas'
document.body.appendChild(canvas)
const offscreen = canvas.transferControlToOffscreen()
const decoder = new Worker(new URL('../../src/features/devices/stream/decoder-worker.ts', import.meta.url), { type: 'module', name: 'phone-decoder' })
const socket = new Worker(new URL('./phone-baseline-worker.ts', import.meta.url), { type: 'module', name: 'phone-baseline-socket' })
const toSocket = (message: BaselineSocketIn, transfer: Transferable[] = []) => socket.postMessage(message, transfer)

let width = 0
let height = 0
decoder.onmessage = (e: MessageEvent<DecoderOut>) => {
  const m = e.data
  if (m.t === 'size') {
    width = m.width
    height = m.height
  } else if (m.t === 'marker') {
    canvas.dataset.marker = String(m.value)
    canvas.dispatchEvent(new CustomEvent('phone-marker', { detail: m }))
  }
}
decoder.postMessage({ t: 'init', canvas: offscreen, probe: true } satisfies DecoderIn, [offscreen])
const channel = new MessageChannel()
decoder.postMessage({ t: 'port', port: channel.port1 } satisfies DecoderIn, [channel.port1])

let opened: StreamPreset | null = null
let closed: string | null = null
socket.onmessage = (e: MessageEvent<BaselineSocketOut>) => {
  const m = e.data
  if (m.t === 'opened') opened = m.preset
  else if (m.t === 'closed') closed = m.reason
  else closed ??= 'socket down'
}
toSocket({
  t: 'init', url: q.get('ws')!, cardId: Number(q.get('cardId')), cardToken: q.get('token')!,
  preset: (q.get('preset') ?? 'hd') as StreamPreset, decoder: channel.port2,
}, [channel.port2])

// ---- input: what the product's viewer (scrcpy-stream.ts) sends for a pointer ----
const touch = (event: PointerEvent, action: number) => {
  if (width === 0) return
  const rect = canvas.getBoundingClientRect()
  const x = Math.min(Math.max(Math.round(((event.clientX - rect.left) / rect.width) * width), 0), width - 1)
  const y = Math.min(Math.max(Math.round(((event.clientY - rect.top) / rect.height) * height), 0), height - 1)
  const bytes = serializer.injectTouch({
    action: action as never,
    pointerId: event.pointerType === 'mouse' ? MOUSE_POINTER_ID : BigInt(event.pointerId),
    pointerX: x, pointerY: y, videoWidth: width, videoHeight: height,
    pressure: action === AndroidMotionEventAction.Up ? 0 : event.pressure || 1, actionButton: 0, buttons: 0,
  })
  toSocket({ t: 'control', bytes })
}
const down = new Set<number>()
canvas.addEventListener('pointerdown', (e) => {
  e.preventDefault()
  canvas.setPointerCapture(e.pointerId)
  down.add(e.pointerId)
  touch(e, AndroidMotionEventAction.Down)
})
canvas.addEventListener('pointermove', (e) => {
  if (down.has(e.pointerId)) touch(e, AndroidMotionEventAction.Move)
})
const up = (e: PointerEvent) => {
  if (down.delete(e.pointerId)) touch(e, e.type === 'pointercancel' ? AndroidMotionEventAction.Cancel : AndroidMotionEventAction.Up)
}
canvas.addEventListener('pointerup', up)
canvas.addEventListener('pointercancel', up)

window.__phoneBaseline = {
  opened: () => opened,
  closed: () => closed,
  setPreset: (preset) => toSocket({ t: 'preset', preset }),
  close: () => toSocket({ t: 'close' }),
}
