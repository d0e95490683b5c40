// The bus over PostgreSQL LISTEN/NOTIFY: one dedicated connection per instance listens on the shared channel and on
// its own reply channel; messages are sent with pg_notify through the query pool. A message over the NOTIFY payload
// limit travels as a row of push_payloads that receivers read by id. A lost listening connection is re-opened (what
// was published meanwhile is missed by that instance, as a socket would miss it while reconnecting).
//
// Each channel's NOTIFYs are sent one after another: NOTIFYs sent at once over different pool connections may arrive
// in either order, and pushes to one user must keep the order they were fired in. What queues up while one NOTIFY is
// on its way leaves together in the next (a batch up to the payload limit), so pushes fired together cost one round
// trip, not one each.
import { sql } from 'kysely'
import pg from 'pg'
import type { Bus, BusHandlers, BusMessage, BusReply } from './bus.ts'
import type { ClusterDb } from './tables.ts'

const CHANNEL = 'cloud_phone_bus'
const replyChannel = (instanceId: string): string => `cloud_phone_reply_${instanceId}`
/** below PostgreSQL's 8000-byte NOTIFY payload limit, with room for the envelope. */
const MAX_INLINE_BYTES = 7_000
const RECONNECT_MS = 1_000

/** One message on the shared channel: inline, or the id of its push_payloads row. */
type Wire = { readonly m: BusMessage } | { readonly ref: string }
/** What one NOTIFY carries: messages (shared channel) or replies (reply channel), in the order they were sent. */
type Batch<A> = { readonly b: ReadonlyArray<A> }

interface Queued {
  /** the item's JSON; once prepared, what goes on the wire. */
  json: string
  prepared: boolean
  readonly done: () => void
  readonly fail: (error: unknown) => void
}

/**
 * Sends what is queued for one channel, one NOTIFY at a time, each carrying as many queued items as fit.
 * `prepare` may replace an item too large for a NOTIFY (it runs in queue order, so the order holds).
 */
const createSender = (notify: (payload: string) => Promise<unknown>, prepare: (json: string) => Promise<string> = async (j) => j) => {
  const queue: Queued[] = []
  let sending = false
  const pump = async (): Promise<void> => {
    sending = true
    try {
      while (queue.length > 0) {
        const batch: Queued[] = []
        const items: string[] = []
        let bytes = 0
        while (queue.length > 0) {
          const next = queue[0]!
          if (!next.prepared) {
            try {
              next.json = await prepare(next.json)
              next.prepared = true
            } catch (error) {
              queue.shift()
              next.fail(error)
              continue
            }
          }
          const size = Buffer.byteLength(next.json) + 1
          if (items.length > 0 && bytes + size > MAX_INLINE_BYTES) break
          queue.shift()
          batch.push(next)
          items.push(next.json)
          bytes += size
        }
        if (items.length === 0) continue
        try {
          await notify(`{"b":[${items.join(',')}]}`)
          for (const q of batch) q.done()
        } catch (error) {
          for (const q of batch) q.fail(error)
        }
      }
    } finally {
      sending = false
    }
  }
  return (json: string): Promise<void> =>
    new Promise<void>((done, fail) => {
      queue.push({ json, prepared: false, done, fail })
      if (!sending) void pump()
    })
}

export const createPostgresBus = (databaseUrl: string, db: ClusterDb, log: (line: string) => void): Bus => {
  let client: pg.Client | null = null
  let closed = false
  let started: { id: string; handlers: BusHandlers } | null = null
  let reconnectTimer: NodeJS.Timeout | null = null

  const notify = (channel: string) => (payload: string) => sql`select pg_notify(${channel}, ${payload})`.execute(db)

  /** a message too large for a NOTIFY becomes a reference to its row. */
  const inlineOrRef = async (json: string): Promise<string> => {
    if (Buffer.byteLength(json) <= MAX_INLINE_BYTES - 16) return json
    const message = (JSON.parse(json) as { m: BusMessage }).m
    const row = await db.insertInto('push_payloads').values({ frame: JSON.stringify(message) }).returning('id').executeTakeFirstOrThrow()
    return JSON.stringify({ ref: String(row.id) } satisfies Wire)
  }
  const publishSender = createSender(notify(CHANNEL), inlineOrRef)
  const replySenders = new Map<string, (json: string) => Promise<void>>()

  // messages are handed on in NOTIFY order, even when one of them has to be read from push_payloads first
  let inbound: Promise<unknown> = Promise.resolve()

  const receive = async (wire: Wire): Promise<BusMessage | null> => {
    if ('m' in wire) return wire.m
    const row = await db.selectFrom('push_payloads').select('frame').where('id', '=', wire.ref as never).executeTakeFirst()
    return row ? (JSON.parse(row.frame) as BusMessage) : null
  }

  const connect = async (): Promise<void> => {
    if (!started || closed) return
    const { id, handlers } = started
    const c = new pg.Client({ connectionString: databaseUrl })
    const lost = () => {
      if (client !== c) return
      client = null
      c.end().catch(() => undefined)
      if (closed) return
      log('[bus] 数据库监听连接断开，正在重连')
      reconnectTimer = setTimeout(() => connect().catch(() => lost()), RECONNECT_MS)
    }
    c.on('error', lost)
    c.on('end', lost)
    c.on('notification', (n) => {
      if (!n.payload) return
      let parsed: unknown
      try {
        parsed = JSON.parse(n.payload)
      } catch {
        return // not ours
      }
      const items = (parsed as Partial<Batch<unknown>>).b
      if (!Array.isArray(items)) return
      if (n.channel === CHANNEL) {
        for (const wire of items as Wire[]) {
          inbound = inbound.then(() => receive(wire)).then((m) => m && handlers.onMessage(m), () => undefined)
        }
      } else {
        for (const reply of items as BusReply[]) handlers.onReply(reply)
      }
    })
    client = c
    await c.connect()
    await c.query(`listen ${CHANNEL}`)
    await c.query(`listen ${replyChannel(id)}`)
  }

  return {
    async start(instanceId, handlers) {
      started = { id: instanceId, handlers }
      await connect()
    },
    publish: (message) => publishSender(JSON.stringify({ m: message } satisfies Wire)),
    reply(to, reply) {
      let send = replySenders.get(to)
      if (!send) {
        send = createSender(notify(replyChannel(to)))
        replySenders.set(to, send)
      }
      return send(JSON.stringify(reply))
    },
    async close() {
      closed = true
      if (reconnectTimer) clearTimeout(reconnectTimer)
      const c = client
      client = null
      await c?.end().catch(() => undefined)
    },
  }
}
