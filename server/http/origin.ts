// The server's own absolute origin, for every absolute URL it hands out (avatar and file URLs, the file host, the
// devices' connect answer, ad images; issue 22 finding 9). Forwarded headers (X-Forwarded-Host, X-Forwarded-Proto) and
// the Host header a balancer passes on are believed only from the deployment's own balancers (TRUSTED_PROXIES,
// client-address.ts); from anyone else the origin is the configured PUBLIC_ORIGIN, or the Host header only when it
// names this server itself (one of its own addresses on its listening port), or else the address it listens on.
import { networkInterfaces } from 'node:os'
import { isHttpProtocol } from '../../worker/protocol/domain.ts'
import type { Context } from 'hono'
import type { App } from '../context.ts'

export interface OriginSettings {
  /** the origin clients reach the deployment under (PUBLIC_ORIGIN), e.g. `https://phone.example.com`. */
  readonly publicOrigin?: string | undefined
}

/** What the server learns once it listens (absent for an app only called in-process). */
export interface OwnAddress {
  /** e.g. `http://127.0.0.1:8080`. */
  readonly url: string
  readonly port: number
}

/** `https://a.example:8443` from a configured value; throws on anything that is not a bare http(s) origin. */
export const parsePublicOrigin = (value: string): string => {
  const url = new URL(value)
  if (!isHttpProtocol(url.protocol) || url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new Error(`PUBLIC_ORIGIN 必须是 http(s) 源（如 https://phone.example.com），而不是 ${value}`)
  }
  return url.origin
}

/** host[:port] as a Host header may carry it: a DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

const first = (header: string | undefined): string | undefined => header?.split(',')[0]?.trim() || undefined

/** the scheme a trusted balancer says the client used (http unless it says https). */
const forwardedProto = (c: Context): 'http' | 'https' => (first(c.req.header('X-Forwarded-Proto'))?.toLowerCase() === 'https' ? 'https' : 'http')

/** True when the request came over https to a trusted balancer (the server itself speaks plain http). */
export const cameOverHttps = (c: Context): boolean => c.get('viaTrustedProxy') === true && forwardedProto(c) === 'https'

const ownHostNames = (): Set<string> => {
  const names = new Set(['localhost', '127.0.0.1', '[::1]'])
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) names.add(info.family === 'IPv6' ? `[${info.address.split('%')[0]}]` : info.address)
  }
  return names
}

export interface Origins {
  /** called once the server listens. */
  listening(own: OwnAddress): void
}

/** Resolves each request's origin once (read with `originOf(c)`). */
export const resolveOrigins = (app: App, settings: OriginSettings = {}): Origins => {
  const configured = settings.publicOrigin ? parsePublicOrigin(settings.publicOrigin) : undefined
  let own: OwnAddress | undefined
  let names = new Set<string>()
  let namesAt = 0

  /** the Host header when it names this server on its port (interfaces are re-read at most every 30 s). */
  const ownHost = (host: string | undefined): string | undefined => {
    if (!own || !host || !HOST.test(host)) return undefined
    const url = new URL(`http://${host}`)
    if (Number(url.port || 80) !== own.port) return undefined
    const name = url.hostname.toLowerCase()
    if (!names.has(name) && Date.now() - namesAt > 30_000) {
      names = ownHostNames()
      namesAt = Date.now()
    }
    return names.has(name) ? `http://${url.host}` : undefined
  }

  const originOfRequest = (c: Context): string => {
    if (configured) return configured
    if (c.get('viaTrustedProxy') === true) {
      const host = first(c.req.header('X-Forwarded-Host')) ?? c.req.header('Host')
      if (host && HOST.test(host)) return `${forwardedProto(c)}://${host.toLowerCase()}`
    }
    return ownHost(c.req.header('Host')) ?? own?.url ?? 'http://127.0.0.1'
  }

  app.use('*', async (c, next) => {
    c.set('origin', originOfRequest(c))
    await next()
  })
  return {
    listening(address) {
      own = address
      names = ownHostNames()
      namesAt = Date.now()
    },
  }
}

/** The absolute origin (no trailing slash) this request's absolute URLs are built on. */
export const originOf = (c: Context): string => (c.get('origin') as string | undefined) ?? 'http://127.0.0.1'
