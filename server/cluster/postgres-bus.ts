// The bus over PostgreSQL LISTEN/NOTIFY: one dedicated connection per instance listens on the shared channel and on
// its own reply channel; messages are sent with pg_notify through the query pool. A message over the NOTIFY payload
// limit travels as a row of push_payloads that receivers read by id. A lost listening connection is re-opened (what
// was published meanwhile is missed by that instance, as a socket would miss it while reconnecting).
import { sql } from 'kysely'
import pg from 'pg'
import type { Bus, BusHandlers, BusMessage, BusReply } from './bus.ts'
import type { ClusterDb } from './tables.ts'

const CHANNEL = 'cloud_phone_bus'
const replyChannel = (instanceId: string): string => `cloud_phone_reply_${instanceId}`
/** below PostgreSQL's 8000-byte NOTIFY payload limit, with room for the envelope. */
const MAX_INLINE_BYTES = 7_000
const RECONNECT_MS = 1_000

type Wire = { readonly m: BusMessage } | { readonly ref: string }

export const createPostgresBus = (databaseUrl: string, db: ClusterDb, log: (line: string) => void): Bus => {
  let client: pg.Client | null = null
  let closed = false
  let started: { id: string; handlers: BusHandlers } | null = null
  let reconnectTimer: NodeJS.Timeout | null = null

  const notify = (channel: string, payload: string) => sql`select pg_notify(${channel}, ${payload})`.execute(db)

  // messages are handed on in NOTIFY order, even when one of them has to be read from push_payloads first
  let inbound: Promise<unknown> = Promise.resolve()

  const receive = async (payload: string): Promise<BusMessage | null> => {
    const wire = JSON.parse(payload) as Wire
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
      if (n.channel === CHANNEL) {
        const payload = n.payload
        inbound = inbound.then(() => receive(payload)).then((m) => m && handlers.onMessage(m), () => undefined)
      } else {
        try {
          handlers.onReply(JSON.parse(n.payload) as BusReply)
        } catch {
          // not ours
        }
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
    async publish(message) {
      let payload = JSON.stringify({ m: message } satisfies Wire)
      if (Buffer.byteLength(payload) > MAX_INLINE_BYTES) {
        const row = await db.insertInto('push_payloads').values({ frame: JSON.stringify(message) }).returning('id').executeTakeFirstOrThrow()
        payload = JSON.stringify({ ref: String(row.id) } satisfies Wire)
      }
      await notify(CHANNEL, payload)
    },
    async reply(to, reply) {
      await notify(replyChannel(to), JSON.stringify(reply))
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
