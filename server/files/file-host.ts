// The reference server's file host is `{origin}/api`, honouring a proxy's forwarded host and scheme.
import type { Context } from 'hono'

export const fileHostOf = (c: Context): string => {
  const url = new URL(c.req.url)
  const host = c.req.header('X-Forwarded-Host') ?? url.host
  const proto = c.req.header('X-Forwarded-Proto') ?? url.protocol.replace(':', '')
  return `${proto}://${host}/api`
}
