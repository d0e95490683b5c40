// A screen thread (screen-pool.ts): draws and encodes the frames of the phones assigned to it, one at a time per
// phone, so the server's event loop never waits on Skia or libx264.
import { parentPort } from 'node:worker_threads'
import { createPhoneScreen, type FrameRequest, type PhoneScreen, type StillRequest } from './screen.ts'
import type { ScreenReply, ScreenRequest } from './screen-pool.ts'

const screens = new Map<number, PhoneScreen>()
const port = parentPort!

port.on('message', (message: ScreenRequest) => {
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
})
