// Opens the push websocket: the browser's WebSocket live, a scripted fake in tests.
import * as Context from 'effect/Context'
import * as Layer from 'effect/Layer'

export interface SocketHandlers {
  readonly onOpen: () => void
  readonly onMessage: (data: unknown) => void
  /** an error or a close the core did not ask for; called at most once per socket. */
  readonly onDown: () => void
}

export interface SocketConnection {
  readonly send: (text: string) => void
  readonly close: () => void
}

export type OpenSocket = (url: string, handlers: SocketHandlers) => SocketConnection

const openWebSocket: OpenSocket = (url, handlers) => {
  let down = false
  const goDown = () => {
    if (down) return
    down = true
    handlers.onDown()
  }
  let ws: WebSocket
  try {
    ws = new WebSocket(url)
  } catch {
    queueMicrotask(goDown)
    return { send: () => {}, close: () => {} }
  }
  ws.onopen = () => handlers.onOpen()
  ws.onmessage = (ev) => handlers.onMessage(ev.data)
  ws.onerror = goDown
  ws.onclose = goDown
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
