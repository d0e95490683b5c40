// The address a request comes from: the socket peer, reduced from IPv4-mapped IPv6 to IPv4 so one client has one key.
// Behind the deployment's own load balancers (TRUSTED_PROXIES, issue 9) the peer is a balancer, so the client is the
// address the balancers report in X-Forwarded-For; anything else never trusts that header (a client could write it).
import { isIP } from 'node:net'
import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { App } from '../context.ts'

const normalise = (address: string): string => (address.startsWith('::ffff:') ? address.slice(7) : address)

const peerAddress = (c: Context): string => {
  let address: string | undefined
  try {
    address = getConnInfo(c).remote.address
  } catch {
    address = undefined // not served by node (app.request in tests)
  }
  return address ? normalise(address) : 'unknown'
}

/**
 * The client behind a chain of trusted balancers: X-Forwarded-For read from the right (each balancer appends the
 * address it saw), skipping the trusted ones; entries left of the first untrusted one were written by the client and
 * are ignored. The peer itself when it is not trusted, or when the header names no usable address.
 */
export const forwardedClient = (peer: string, forwardedFor: string | undefined, trusted: ReadonlySet<string>): string => {
  if (!trusted.has(peer) || !forwardedFor) return peer
  const hops = forwardedFor.split(',').map((hop) => normalise(hop.trim()))
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    if (isIP(hop) === 0) return peer
    if (!trusted.has(hop)) return hop
  }
  return peer
}

/** Resolves every request's client address once, trusting X-Forwarded-For only from these peers. */
export const resolveClientAddresses = (app: App, trustedProxies: ReadonlyArray<string>): void => {
  const trusted = new Set(trustedProxies.map(normalise))
  app.use('*', async (c, next) => {
    const peer = peerAddress(c)
    c.set('viaTrustedProxy', trusted.has(peer))
    c.set('clientAddress', forwardedClient(peer, c.req.header('X-Forwarded-For'), trusted))
    await next()
  })
}

export const clientAddress = (c: Context): string => (c.get('clientAddress') as string | undefined) ?? peerAddress(c)
