// The push hub of one instance in a deployment of one or more: a push for a user is published on the cluster bus,
// every instance (this one included) delivers it to the user's sockets it holds and answers how many it reached; the
// hub adds the answers of the live instances up. So `ops push`, the server's own pushes, forced logouts and the closing
// of revoked tokens' sockets reach every socket of the user on every instance, once each, whichever instance they were
// fired at.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { PushMessage } from '../../worker/protocol/push.ts'
import { PUSH_PATH } from '../../worker/protocol/push-wire.ts'
import type { Bus, BusMessage, BusReply } from '../cluster/bus.ts'
import type { InstanceRegistry } from '../cluster/instances.ts'
import type { Auth, ClusterEvents, PushHub, PushUserStats } from '../context.ts'
import { createLocalSockets, tokenDigest } from './local-sockets.ts'

/**
 * Close code of the push sockets when an instance shuts down: 1012 "Service Restart" (RFC 6455). The client treats
 * every close it did not ask for alike: it reconnects on its usual schedule, through the load balancer, to a live
 * instance.
 */
export const CLOSE_SERVICE_RESTART = 1012

/** How long a fan-out waits for the live instances' answers (an instance that died without deregistering). */
export const ANSWER_TIMEOUT_MS = 2_000
/** How long a phone-or-username to username resolution is reused (pushes come in bursts to the same user). */
const USERNAME_CACHE_MS = 5_000

export interface InstanceConnections {
  readonly id: string
  readonly url: string
  readonly pid: number
  readonly startedAt: string
  readonly total: number
  readonly users: ReadonlyArray<PushUserStats>
}

export interface ConnectionsReport {
  /** live connections over every instance. */
  readonly total: number
  /** per user, summed over the instances. */
  readonly users: ReadonlyArray<PushUserStats>
  readonly instances: ReadonlyArray<InstanceConnections>
}

export interface PushServer extends PushHub {
  readonly instanceId: string
  /** events for every instance, over the same bus. */
  readonly events: ClusterEvents
  /** takes the upgrade when it is for /push (true), else leaves the socket alone (false). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** live connections of every instance. */
  connections(): Promise<ConnectionsReport>
  /** the instances a fan-out waits for. */
  liveInstances(): ReadonlySet<string>
  /** enters the instance registry (at `url`) and tells the other instances. */
  join(url: string): Promise<void>
  /** tells the other instances and leaves the registry. */
  leave(): Promise<void>
  /** refuses new sockets and closes the open ones with CLOSE_SERVICE_RESTART (they are cut after `graceMs`). */
  drain(graceMs?: number): Promise<void>
  /** stops answering the bus. */
  close(): Promise<void>
}

/** a bus message before the hub names it and signs it. */
type Request = BusMessage extends infer M ? (M extends BusMessage ? Omit<M, 'id' | 'from'> : never) : never

interface Gathering {
  readonly answered: Set<string>
  expected: ReadonlySet<string> | null
  count: number
  done: () => void
}

const sumByUser = (lists: ReadonlyArray<ReadonlyArray<PushUserStats>>): PushUserStats[] => {
  const byUser = new Map<string, PushUserStats>()
  for (const list of lists) {
    for (const u of list) {
      const seen = byUser.get(u.username)
      byUser.set(u.username, seen
        ? { ...seen, live: seen.live + u.live, opened: seen.opened + u.opened, keepAlives: seen.keepAlives + u.keepAlives }
        : { ...u })
    }
  }
  return [...byUser.values()]
}

const asStats = (value: unknown): ReadonlyArray<PushUserStats> => {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value
  return Array.isArray(parsed) ? (parsed as PushUserStats[]) : []
}

export const createPushHub = (
  auth: Auth, bus: Bus, instances: InstanceRegistry, options: { readonly maxSocketsPerUser?: number } = {},
): PushServer & { start(): Promise<void> } => {
  const local = createLocalSockets(auth, options)
  const gatherings = new Map<string, Gathering>()
  let draining = false
  let closed = false

  const settle = (g: Gathering) => {
    if (g.expected && [...g.expected].every((id) => g.answered.has(id))) g.done()
  }

  const onReply = (reply: BusReply) => {
    const g = gatherings.get(reply.id)
    if (!g || g.answered.has(reply.instance)) return
    g.answered.add(reply.instance)
    g.count += reply.count
    settle(g)
  }

  /** What this instance does for a request, wherever it came from; resolves with how many of its sockets it reached. */
  const perform = async (message: Request): Promise<number> => {
    switch (message.op) {
      case 'send':
        return local.deliver(message.username, message.frame)
      case 'disconnect':
        return local.disconnect(message.username, message.code)
      case 'closeTokens':
        return local.closeTokens(message.tokenDigests, message.frame)
      case 'stats':
        await instances.writePushStats(local.stats())
        return 0
      default:
        return 0
    }
  }

  const subscribers = new Map<string, Array<(payload: unknown) => void>>()
  const runHandlers = (topic: string, payload: unknown): void => {
    for (const handler of subscribers.get(topic) ?? []) {
      try {
        handler(payload)
      } catch {
        // one subscriber's failure is not the publisher's
      }
    }
  }

  const onMessage = (message: BusMessage) => {
    if (closed) return
    if (message.op === 'hello') return instances.noteAlive(message.from)
    if (message.op === 'bye') return instances.noteGone(message.from)
    if (message.op === 'event') {
      if (message.from !== instances.id) runHandlers(message.topic, message.payload)
      return
    }
    // this instance served its own request directly
    if (message.from === instances.id) return
    perform(message).then(
      (count) => bus.reply(message.from, { id: message.id, instance: instances.id, count }),
      () => undefined,
    ).catch(() => undefined)
  }

  /**
   * Serves a request here and publishes it to the other instances; resolves with the sum of this instance's count and
   * the answers of every other live instance (or what came within ANSWER_TIMEOUT_MS).
   */
  const gather = async (request: Request): Promise<number> => {
    const id = randomUUID()
    let done!: () => void
    const finished = new Promise<void>((resolve) => (done = resolve))
    const g: Gathering = { answered: new Set([instances.id]), expected: null, count: 0, done }
    gatherings.set(id, g)
    const timer = setTimeout(done, ANSWER_TIMEOUT_MS)
    try {
      g.expected = new Set(instances.liveIds())
      const [here] = await Promise.all([perform(request), bus.publish({ ...request, id, from: instances.id } as BusMessage)])
      g.count += here
      settle(g)
      await finished
      return g.count
    } finally {
      clearTimeout(timer)
      gatherings.delete(id)
    }
  }

  const drain = async (graceMs = 5_000): Promise<void> => {
    draining = true
    await local.closeAll(CLOSE_SERVICE_RESTART, graceMs)
  }

  // concurrent pushes to one name share one look-up, so they go out in the order they were fired
  const names = new Map<string, { username: Promise<string | null>; at: number }>()
  const usernameOf = (usernameOrPhone: string): Promise<string | null> => {
    const cached = names.get(usernameOrPhone)
    if (cached && Date.now() - cached.at < USERNAME_CACHE_MS) return cached.username
    if (names.size > 10_000) names.clear()
    const username = auth.findUser(usernameOrPhone).then((user) => {
      // an unknown name is asked again next time: the account may be made in a moment
      if (!user && names.get(usernameOrPhone)?.username === username) names.delete(usernameOrPhone)
      return user?.username ?? null
    }, (error: unknown) => {
      if (names.get(usernameOrPhone)?.username === username) names.delete(usernameOrPhone)
      throw error
    })
    names.set(usernameOrPhone, { username, at: Date.now() })
    return username
  }

  const announce = (op: 'hello' | 'bye') => bus.publish({ op, id: randomUUID(), from: instances.id }).catch(() => undefined)

  return {
    instanceId: instances.id,
    events: {
      async publish(topic, payload) {
        runHandlers(topic, payload)
        await bus.publish({ op: 'event', id: randomUUID(), from: instances.id, topic, payload })
      },
      subscribe(topic, handler) {
        subscribers.set(topic, [...(subscribers.get(topic) ?? []), handler])
      },
    },
    async start() {
      await bus.start(instances.id, { onMessage, onReply })
    },
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (url.pathname !== PUSH_PATH) return false
      if (draining) {
        socket.destroy()
        return true
      }
      local.accept(request, socket, head)
      return true
    },
    async send(usernameOrPhone, message: PushMessage) {
      const username = await usernameOf(usernameOrPhone)
      if (!username) return 0
      return gather({ op: 'send', username, frame: JSON.stringify(message) })
    },
    async disconnect(usernameOrPhone, code = 1000) {
      const username = await usernameOf(usernameOrPhone)
      if (!username) return 0
      return gather({ op: 'disconnect', username, code })
    },
    async closeTokens(tokens, lastFrame) {
      if (tokens.length === 0) return 0
      return gather({ op: 'closeTokens', tokenDigests: tokens.map(tokenDigest), ...(lastFrame === undefined ? {} : { frame: lastFrame }) })
    },
    async join(url) {
      await instances.register(url)
      await announce('hello')
    },
    async leave() {
      await announce('bye')
      await instances.deregister()
    },
    liveInstances: () => instances.liveIds(),
    stats: () => local.stats(),
    liveCount: () => local.liveCount(),
    async connections() {
      await gather({ op: 'stats' })
      const rows = await instances.liveRows()
      const perInstance = rows.map((r) => {
        const users = asStats(r.pushStats)
        return { id: r.id, url: r.url, pid: r.pid, startedAt: r.startedAt, total: users.reduce((n, u) => n + u.live, 0), users }
      })
      return {
        total: perInstance.reduce((n, i) => n + i.total, 0),
        users: sumByUser(perInstance.map((i) => i.users)),
        instances: perInstance,
      }
    },
    drain,
    async close() {
      if (!draining) await drain(0)
      closed = true
      await bus.close()
    },
  }
}
