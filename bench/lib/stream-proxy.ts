// A plain TCP relay in front of the reference server that counts what the server sends down the phone-stream sockets
// (connections whose HTTP request is for STREAM_PATH): the server's view of "how many stream sockets does this browser
// hold and how many bytes reach it", without touching the server. Every other connection is relayed uncounted.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net'
import { STREAM_PATH } from '../../worker/protocol/stream.ts'

export interface StreamProxy {
  /** http://127.0.0.1:port, to use as the API target instead of the server's URL. */
  readonly url: string
  /** stream sockets open now and opened so far; bytes the server sent down stream sockets so far (headers included). */
  readonly counters: () => { readonly open: number; readonly opened: number; readonly bytesDown: number }
  readonly close: () => Promise<void>
}

const STREAM_REQUEST = Buffer.from(`GET ${STREAM_PATH}`)

export const startStreamProxy = async (target: string): Promise<StreamProxy> => {
  const { hostname, port } = new URL(target)
  let open = 0
  let opened = 0
  let bytesDown = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname)
    sockets.add(client)
    sockets.add(upstream)
    client.setNoDelay(true)
    upstream.setNoDelay(true)
    let stream = false
    client.on('data', (chunk: Buffer) => {
      // an upgrade request starts a chunk of its own (the vite proxy writes each request in one go)
      if (!stream && chunk.subarray(0, STREAM_REQUEST.length).equals(STREAM_REQUEST)) {
        stream = true
        open += 1
        opened += 1
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => {
      if (stream) bytesDown += chunk.byteLength
      client.write(chunk)
    })
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      if (stream) open -= 1
      sockets.delete(client)
      sockets.delete(upstream)
      client.destroy()
      upstream.destroy()
    }
    client.on('close', end)
    upstream.on('close', end)
    client.on('error', end)
    upstream.on('error', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counters: () => ({ open, opened, bytesDown }),
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    }),
  }
}
