// Graceful stop of the HTTP side: stop accepting connections, let the requests in flight finish (their answers carry
// `Connection: close`, idle keep-alive connections are closed at once), and cut whatever is left after the grace.
import type { Server } from 'node:http'

export interface HttpDrain {
  /** resolves when every connection is gone; upgraded sockets must be closed by their owners meanwhile. */
  drain(graceMs: number): Promise<void>
}

export const createHttpDrain = (server: Server): HttpDrain => {
  let draining = false
  server.on('request', (_request, response) => {
    if (draining && !response.headersSent) response.setHeader('Connection', 'close')
  })
  let done: Promise<void> | null = null
  return {
    drain(graceMs) {
      draining = true
      done ??= new Promise<void>((resolve) => {
        const sweep = setInterval(() => server.closeIdleConnections(), 50)
        const cut = setTimeout(() => server.closeAllConnections(), graceMs)
        server.close(() => {
          clearInterval(sweep)
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
      })
      return done
    },
  }
}
