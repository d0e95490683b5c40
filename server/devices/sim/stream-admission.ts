// Who may hold a phone-stream socket (issue 41 finding 3). The upgrade carries no credential (a browser cannot set
// headers on a websocket), so a socket proves itself with its first `open` or `thumb`: one that has not opened a card
// of a user by STREAM_ADMISSION.authDeadlineMs, or whose card tokens were refused STREAM_ADMISSION.maxRefusals times
// before, is closed. Each address holds at most so many sockets, and fewer still that have not proved themselves; an
// address whose sockets keep sending made-up tokens (each one a database lookup) opens no new one for a while.
import type { IncomingMessage } from 'node:http'
import { forwardedClient } from '../../http/client-address.ts'

export const STREAM_ADMISSION = {
  /** a socket that opened no card of a user by then is closed. */
  authDeadlineMs: 10_000,
  /** refused card tokens a socket may send before it proved itself. */
  maxRefusals: 5,
  /** refused card tokens of an address's unproved sockets: a burst, then one per this many ms. */
  addressRefusalBurst: 20,
  addressRefusalEveryMs: 3_000,
  /** sockets per client address: an office behind one NAT has a socket per browser (each user's are capped too). */
  maxPerAddress: 128,
  /** of which not yet proved. */
  maxAnonymousPerAddress: 8,
} as const

const normalise = (address: string): string => (address.startsWith('::ffff:') ? address.slice(7) : address)

/** the client address of an upgrade: the peer, or behind the deployment's balancers the client they name. */
export const upgradeAddress = (request: IncomingMessage, trustedProxies: ReadonlySet<string>): string => {
  const peer = normalise(request.socket.remoteAddress ?? 'unknown')
  const forwarded = request.headers['x-forwarded-for']
  return forwardedClient(peer, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trustedProxies)
}

export interface AddressBook {
  /** whether one more socket (not yet proved) may come from the address. */
  admits(address: string): boolean
  /** an unproved socket of the address sent a refused card token: false once the address is past its allowance. */
  refused(address: string): boolean
  add(address: string): void
  /** the socket opened a user's card. */
  proved(address: string): void
  remove(address: string, proved: boolean): void
}

export type AddressLimits = { readonly [K in 'maxPerAddress' | 'maxAnonymousPerAddress' | 'addressRefusalBurst' | 'addressRefusalEveryMs']: number }

export const createAddressBook = (limits: AddressLimits = STREAM_ADMISSION, now: () => number = performance.now.bind(performance)): AddressBook => {
  const all = new Map<string, number>()
  const anonymous = new Map<string, number>()
  // refusal allowance left per address (a token bucket, dropped once full again)
  const allowance = new Map<string, { tokens: number; at: number }>()
  const allowanceOf = (address: string): { tokens: number; at: number } => {
    const t = now()
    const a = allowance.get(address) ?? { tokens: limits.addressRefusalBurst, at: t }
    a.tokens = Math.min(limits.addressRefusalBurst, a.tokens + (t - a.at) / limits.addressRefusalEveryMs)
    a.at = t
    if (a.tokens >= limits.addressRefusalBurst) allowance.delete(address)
    else allowance.set(address, a)
    return a
  }
  const bump = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by
    if (n <= 0) map.delete(key)
    else map.set(key, n)
  }
  return {
    admits: (address) =>
      (all.get(address) ?? 0) < limits.maxPerAddress && (anonymous.get(address) ?? 0) < limits.maxAnonymousPerAddress && allowanceOf(address).tokens >= 1,
    refused(address) {
      const a = allowanceOf(address)
      a.tokens -= 1
      allowance.set(address, a)
      return a.tokens >= 0
    },
    add(address) {
      bump(all, address, 1)
      bump(anonymous, address, 1)
    },
    proved: (address) => bump(anonymous, address, -1),
    remove(address, proved) {
      bump(all, address, -1)
      if (!proved) bump(anonymous, address, -1)
    },
  }
}
