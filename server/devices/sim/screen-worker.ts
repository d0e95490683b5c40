// A screen thread (screen-pool.ts): draws and encodes the frames of the phones assigned to it, one at a time per
// phone, so the server's event loop never waits on Skia or libx264.
//
// One request per turn of the thread's event loop (issue 41 finding 1): a port delivers every queued message in one
// go, and each frame's pixel copy (render.ts) is freed by a finalizer that runs only between turns, so a thread kept
// busy by several phones would otherwise hold every copy it made (GBs within seconds).
import { parentPort } from 'node:worker_threads'
import { createPhoneScreen, type FrameRequest, type PhoneScreen, type StillRequest } from './screen.ts'
import type { ScreenReply, ScreenRequest } from './screen-pool.ts'

const screens = new Map<number, PhoneScreen>()
const port = parentPort!
const queue: ScreenRequest[] = []
let scheduled = false

const handle = (message: ScreenRequest): void => {
  if (message.op === 'close') {
    screens.get(message.screen)?.close()
    screens.delete(message.screen)
    return
  }
  let screen = screens.get(message.screen)
  if (!screen) {
    screen = createPhoneScreen()
    screens.set(message.screen, screen)
  }
  let reply: ScreenReply
  try {
    reply = message.op === 'still'
      ? { id: message.id, still: screen.still(message.request as StillRequest) }
      : { id: message.id, packets: screen.frame(message.request as FrameRequest) }
  } catch (e) {
    reply = { id: message.id, error: e instanceof Error ? e.message : String(e) }
  }
  port.postMessage(reply)
}

const next = (): void => {
  scheduled = false
  const message = queue.shift()
  if (!message) return
  handle(message)
  if (queue.length > 0) {
    scheduled = true
    setImmediate(next)
  }
}

port.on('message', (message: ScreenRequest) => {
  queue.push(message)
  if (scheduled) return
  scheduled = true
  setImmediate(next)
})
