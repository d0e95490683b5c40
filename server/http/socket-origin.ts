// Which pages may open the server's websockets (/push and the phone stream; issue 22 finding 15). A browser sends the
// page's Origin with every upgrade and lets any page open a socket to any server, so an upgrade whose Origin is
// present must name this server itself (the Host the browser reached, so the same origin as the page the server
// serves) or one of the configured origins (PUBLIC_ORIGIN, ALLOWED_ORIGINS). An upgrade without an Origin is not a
// browser's (another instance's relay, tools, tests) and is let through: tokens still decide what it may do.
import type { IncomingMessage } from 'node:http'
import { isHttpProtocol } from '../../worker/protocol/domain.ts'
import type { Duplex } from 'node:stream'

/** `https://a.example:8443`, lower case, or null for anything that is not an http(s) origin. */
const normalOrigin = (value: string): string | null => {
  try {
    const url = new URL(value)
    return isHttpProtocol(url.protocol) ? url.origin.toLowerCase() : null
  } catch {
    return null
  }
}

/** The allowed origins from a configured list (comma-separated origins; bad entries throw). */
export const parseAllowedOrigins = (values: ReadonlyArray<string | undefined>): ReadonlySet<string> => {
  const allowed = new Set<string>()
  for (const value of values.flatMap((v) => (v ?? '').split(',')).map((v) => v.trim()).filter((v) => v !== '')) {
    const origin = normalOrigin(value)
    if (!origin) throw new Error(`ALLOWED_ORIGINS 中的 ${value} 不是 http(s) 源`)
    allowed.add(origin)
  }
  return allowed
}

/** Whether the upgrade may go on: no Origin, the server's own (same host as the request's Host), or an allowed one. */
export const socketOriginAllowed = (request: IncomingMessage, allowed: ReadonlySet<string>): boolean => {
  const header = request.headers.origin
  if (header === undefined) return true
  const origin = normalOrigin(header)
  if (!origin) return false
  if (allowed.has(origin)) return true
  const host = request.headers.host?.toLowerCase()
  return host !== undefined && new URL(origin).host === host
}

/** Refuses an upgrade with 403 (before any websocket handshake). */
export const refuseUpgrade = (socket: Duplex): void => {
  if (socket.writable) socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
  else socket.destroy()
}
