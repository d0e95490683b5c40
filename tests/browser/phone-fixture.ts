// Helpers of the phone-stream browser tests: sign in and connect a phone through a test tab's core, and a real
// decoder worker on a canvas of the page fed by the core (as the viewer does), with its reports collected.
import { transfer } from 'comlink'
import { AndroidMotionEventAction, ScrcpyControlMessageSerializer, ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy'
import type { DecoderOut } from '../../src/features/devices/stream/decoder-messages.ts'
import type { StreamPreset } from '../../worker/protocol/stream.ts'
import { DEMO, type TestTab } from './core-fixture.ts'

export const serializer = new ScrcpyControlMessageSerializer(new ScrcpyOptions3_3_1({ control: true, clipboardAutosync: true }))

export interface PhoneCard { readonly userCardId: number; readonly cardToken: string }

/** Signs the demo account in through the tab and connects the phone with that disk name (or the first one). */
export const connectPhone = async (tab: TestTab, diskName = '云手机-01'): Promise<PhoneCard> => {
  const login = await tab.client.api.login(DEMO)
  if (!login.ok) throw new Error(`login failed: ${login.msg}`)
  const devices = await tab.client.api.refreshDevices()
  if (!devices.ok) throw new Error('no devices')
  const device = devices.data.find((d) => d.diskName === diskName) ?? devices.data[0]!
  // the demo phones are shared by the browser files: one another file rebooted is still starting (5200), and the
  // client retries then, as the viewer does
  for (let tries = 0; ; tries++) {
    const connected = await tab.client.api.call('connect', { userCardId: device.userCardId })
    if (!connected.ok || connected.data === false) throw new Error(`connect failed: ${JSON.stringify(connected)}`)
    if (!('starting' in connected.data)) return connected.data as PhoneCard
    if (tries >= 60) throw new Error('the phone did not finish starting in 30 s')
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** The real decoder worker on a canvas of this page, fed by the tab's core; `workers` collects it for the test's end. */
export const decodingViewer = async (
  tab: TestTab, card: PhoneCard, workers: Worker[], o: { preset?: StreamPreset; audio?: boolean } = {},
) => {
  const canvas = document.createElement('canvas')
  document.body.appendChild(canvas)
  const offscreen = canvas.transferControlToOffscreen()
  const worker = new Worker(new URL('../../src/features/devices/stream/decoder-worker.ts', import.meta.url), { type: 'module' })
  workers.push(worker)
  const out: DecoderOut[] = []
  worker.onmessage = (e: MessageEvent<DecoderOut>) => void out.push(e.data)
  worker.postMessage({ t: 'init', canvas: offscreen, probe: true }, [offscreen])
  const decoder = new MessageChannel()
  const control = new MessageChannel()
  worker.postMessage({ t: 'port', port: decoder.port1 }, [decoder.port1])
  await tab.client.api.openStream(
    { cardId: card.userCardId, cardToken: card.cardToken, preset: o.preset ?? 'smooth', audio: o.audio ?? false },
    transfer(decoder.port2, [decoder.port2]), transfer(control.port2, [control.port2]),
  )
  const markers = () => out.flatMap((m) => (m.t === 'marker' ? [m.value] : []))
  const size = () => out.filter((m): m is Extract<DecoderOut, { t: 'size' }> => m.t === 'size').at(-1) ?? null
  /** a touch down and up at a point of the decoded picture's size. */
  const touch = (x: number, y: number) => {
    const s = size()!
    for (const action of [AndroidMotionEventAction.Down, AndroidMotionEventAction.Up]) {
      control.port1.postMessage({
        t: 'control',
        bytes: serializer.injectTouch({
          action, pointerId: 1n, pointerX: Math.round(x), pointerY: Math.round(y), videoWidth: s.width, videoHeight: s.height,
          pressure: action === AndroidMotionEventAction.Up ? 0 : 1, actionButton: 0, buttons: 0,
        }),
      })
    }
  }
  return { out, control: control.port1, markers, size, touch }
}
