// The message bus between the server instances of one database. On PostgreSQL it is LISTEN/NOTIFY
// (postgres-bus.ts); on PGlite, where one process is the whole deployment, it is this in-process bus. Either way a
// published message reaches every instance once, the publisher included, and a reply reaches the one instance it
// is addressed to.

/** A request to every instance; `from` is the publisher's instance id, `id` names the request for the replies. */
export type BusMessage =
  | { readonly op: 'send'; readonly id: string; readonly from: string; readonly username: string; readonly frame: string }
  | { readonly op: 'disconnect'; readonly id: string; readonly from: string; readonly username: string; readonly code: number }
  /** close the sockets opened with these revoked tokens (sha-256 digests: tokenDigest in push/local-sockets.ts), `frame` sent first. */
  | { readonly op: 'closeTokens'; readonly id: string; readonly from: string; readonly tokenDigests: ReadonlyArray<string>; readonly frame?: string }
  | { readonly op: 'stats'; readonly id: string; readonly from: string }
  /** an event for every instance's subscribers of the topic (ClusterEvents in context.ts): no answer expected. */
  | { readonly op: 'event'; readonly id: string; readonly from: string; readonly topic: string; readonly payload: unknown }
  /** an instance started (`from`) or is leaving: no answer expected. */
  | { readonly op: 'hello' | 'bye'; readonly id: string; readonly from: string }

/** An instance's answer to a request: how many of its sockets it reached (stats: 0, the stats are in the table). */
export interface BusReply {
  readonly id: string
  readonly instance: string
  readonly count: number
}

export interface Bus {
  /** starts listening for messages to every instance and replies to `instanceId`. */
  start(instanceId: string, handlers: BusHandlers): Promise<void>
  publish(message: BusMessage): Promise<void>
  reply(to: string, reply: BusReply): Promise<void>
  close(): Promise<void>
}

export interface BusHandlers {
  readonly onMessage: (message: BusMessage) => void
  readonly onReply: (reply: BusReply) => void
}

/** The bus of a single-process deployment: delivery on the next microtask, in publish order. */
export const createLocalBus = (): Bus => {
  let self: { id: string; handlers: BusHandlers } | null = null
  return {
    async start(instanceId, handlers) {
      self = { id: instanceId, handlers }
    },
    async publish(message) {
      const target = self
      if (target) queueMicrotask(() => target.handlers.onMessage(message))
    },
    async reply(to, reply) {
      const target = self
      if (target && target.id === to) queueMicrotask(() => target.handlers.onReply(reply))
    },
    async close() {
      self = null
    },
  }
}
