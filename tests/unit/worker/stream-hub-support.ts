// The StreamHub's test doubles shared by its test files: a manual clock and a scripted server socket.
import { makeStreamHub, type StreamSocketHandlers, type StreamTimers } from '../../../worker/stream/stream-hub.ts'

export const manualTimers = () => {
  let now = 0
  let nextId = 1
  const tasks = new Map<number, { at: number; f: () => void; every: number | null }>()
  const timers: StreamTimers = {
    now: () => now,
    setTimeout: (f, ms) => { const id = nextId++; tasks.set(id, { at: now + ms, f, every: null }); return id },
    clearTimeout: (h) => void tasks.delete(h as number),
    setInterval: (f, ms) => { const id = nextId++; tasks.set(id, { at: now + ms, f, every: ms }); return id },
    clearInterval: (h) => void tasks.delete(h as number),
  }
  const advance = (ms: number) => {
    const end = now + ms
    for (;;) {
      const due = [...tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
      if (due === undefined) break
      const [id, task] = due
      now = task.at
      if (task.every === null) tasks.delete(id)
      else task.at += task.every
      task.f()
    }
    now = end
  }
  return { timers, advance }
}

export interface FakeSocket {
  readonly handlers: StreamSocketHandlers
  readonly sent: Array<string | Uint8Array>
  closed: boolean
}

/** a hub on a manual clock whose sockets are fakes the test drives; tabs are visible as `visible` says. */
export const hubWithFakes = () => {
  const clock = manualTimers()
  const sockets: FakeSocket[] = []
  const visible = new Map<string, boolean>()
  const hub = makeStreamHub({
    url: 'ws://127.0.0.1/api/resources/stream',
    timers: clock.timers,
    isVisible: (tabId) => visible.get(tabId) ?? false,
    openSocket: (_url, handlers) => {
      const socket: FakeSocket = { handlers, sent: [], closed: false }
      sockets.push(socket)
      return { send: (d) => void socket.sent.push(d), close: () => { socket.closed = true } }
    },
  })
  return { clock, sockets, visible, hub }
}
