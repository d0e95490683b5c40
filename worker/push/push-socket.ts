// Opens the push websocket: the browser's WebSocket live, a scripted fake in tests.
import * as Context from 'effect/Context'
import * as Layer from 'effect/Layer'

export interface SocketHandlers {
  readonly onOpen: () => void
  readonly onMessage: (data: unknown) => void
  /** an error or a close the core did not ask for, with the close code if there was one; at most once per socket. */
  readonly onDown: (closeCode: number | null) => void
}

export interface SocketConnection {
  readonly send: (text: string) => void
  readonly close: () => void
}

export type OpenSocket = (url: string, handlers: SocketHandlers) => SocketConnection

const openWebSocket: OpenSocket = (url, handlers) => {
  let down = false
  const goDown = (code: number | null) => {
    if (down) return
    down = true
    handlers.onDown(code)
  }
  let ws: WebSocket
  try {
    ws = new WebSocket(url)
  } catch {
    queueMicrotask(() => goDown(null))
    return { send: () => {}, close: () => {} }
  }
  ws.onopen = () => handlers.onOpen()
  ws.onmessage = (ev) => handlers.onMessage(ev.data)
  // an error is always followed by a close: wait for it, it carries the code
  ws.onerror = () => {}
  ws.onclose = (ev) => goDown(ev.code)
  return {
    send: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text)
    },
    close: () => {
      down = true
      ws.close()
    },
  }
}

export class PushSocket extends Context.Service<PushSocket, OpenSocket>()('cloud-phone/PushSocket') {
  static readonly layer = Layer.succeed(PushSocket, openWebSocket)
  static readonly layerTest = (open: OpenSocket) => Layer.succeed(PushSocket, open)
}
