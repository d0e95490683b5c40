// The address a request comes from (the socket peer; X-Forwarded-For is not trusted: nothing in front of this server
// sets it). IPv4-mapped IPv6 addresses are reduced to IPv4 so one client has one key.
import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'

export const clientAddress = (c: Context): string => {
  let address: string | undefined
  try {
    address = getConnInfo(c).remote.address
  } catch {
    address = undefined // not served by node (app.request in tests)
  }
  if (!address) return 'unknown'
  return address.startsWith('::ffff:') ? address.slice(7) : address
}
