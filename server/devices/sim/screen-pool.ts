// The screen threads of this process: a few worker threads (one per core, at most 4) that draw and encode every phone
// screen (screen.ts), so that a frame never blocks the sockets, the API or another phone's input. Each screen lives on
// one thread for its life (its encoder is there); a new screen goes to the thread with the fewest. Threads start on
// the first frame and do not keep the process alive. A thread that dies fails its frames in flight and is replaced
// on the next frame (the stream-server then starts that phone's stream again with a keyframe).
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { EncodedPacket } from './encoder.ts'
import type { FrameRequest, StillRequest } from './screen.ts'

export type ScreenRequest =
  | { readonly op: 'frame'; readonly id: number; readonly screen: number; readonly request: FrameRequest }
  | { readonly op: 'still'; readonly id: number; readonly screen: number; readonly request: StillRequest }
  | { readonly op: 'close'; readonly screen: number }
export type ScreenReply =
  | { readonly id: number; readonly packets: EncodedPacket[] }
  | { readonly id: number; readonly still: Uint8Array }
  | { readonly id: number; readonly error: string }

/** One phone's screen on a screen thread. Frames must not overlap (await each). */
export interface PooledScreen {
  frame(request: FrameRequest): Promise<EncodedPacket[]>
  /** a thumbnail still (drawn on its own canvas: it may come between frames). */
  still(request: StillRequest): Promise<Uint8Array>
  close(): void
}

export interface ScreenPool {
  open(): PooledScreen
  /** screens open now (one per phone with viewers: the tests check viewers share one). */
  liveScreens(): number
}

interface Thread {
  worker: Worker | null
  screens: number
  readonly pending: Map<number, { resolve: (p: EncodedPacket[] | Uint8Array) => void; reject: (e: Error) => void }>
}

// The server runs its TypeScript through tsx; a worker thread registers it before loading its entry. tsx's ESM API is
// found through its package.json (import.meta.resolve is missing where vitest's module runner loads this file).
const tsxEsmApi = (): string => {
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json')
  return pathToFileURL(join(dirname(pkg), 'dist/esm/api/index.mjs')).href
}
const workerSource = (entry: string): string =>
  `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`

export const createScreenPool = (size = Math.max(1, Math.min(4, availableParallelism()))): ScreenPool => {
  const threads: Thread[] = Array.from({ length: size }, () => ({ worker: null, screens: 0, pending: new Map() }))
  let nextId = 1
  let nextScreen = 1
  let live = 0

  const start = (thread: Thread): Worker => {
    const worker = new Worker(workerSource(new URL('./screen-worker.ts', import.meta.url).href), { eval: true, execArgv: [] })
    worker.unref()
    worker.on('message', (reply: ScreenReply) => {
      const waiting = thread.pending.get(reply.id)
      if (!waiting) return
      thread.pending.delete(reply.id)
      if ('error' in reply) waiting.reject(new Error(reply.error))
      else waiting.resolve('still' in reply ? reply.still : reply.packets)
    })
    const gone = (why: string) => {
      if (thread.worker !== worker) return
      thread.worker = null
      for (const waiting of thread.pending.values()) waiting.reject(new Error(`screen thread ${why}`))
      thread.pending.clear()
    }
    worker.on('error', (e) => gone(`failed: ${e.message}`))
    worker.on('exit', (code) => gone(`exited (${code})`))
    thread.worker = worker
    return worker
  }

  return {
    liveScreens: () => live,
    open() {
      const thread = threads.reduce((a, t) => (t.screens < a.screens ? t : a))
      const screen = nextScreen++
      thread.screens += 1
      live += 1
      let closed = false
      const ask = (message: (id: number) => ScreenRequest): Promise<EncodedPacket[] | Uint8Array> => {
        const worker = thread.worker ?? start(thread)
        const id = nextId++
        return new Promise((resolve, reject) => {
          thread.pending.set(id, { resolve, reject })
          worker.postMessage(message(id))
        })
      }
      return {
        frame(request) {
          if (closed) return Promise.resolve([])
          return ask((id) => ({ op: 'frame', id, screen, request })) as Promise<EncodedPacket[]>
        },
        still(request) {
          if (closed) return Promise.reject(new Error('screen closed'))
          return ask((id) => ({ op: 'still', id, screen, request })) as Promise<Uint8Array>
        },
        close() {
          if (closed) return
          closed = true
          thread.screens -= 1
          live -= 1
          thread.worker?.postMessage({ op: 'close', screen } satisfies ScreenRequest)
        },
      }
    },
  }
}

let shared: ScreenPool | null = null
/** the process's pool (every stream server of the process, and the tests' many, share its threads). */
export const screenPool = (): ScreenPool => (shared ??= createScreenPool())
