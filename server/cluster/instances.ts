// The registry of server instances over one database: each instance inserts its row at start, refreshes its heartbeat
// and deletes the row when it stops. An instance is live while its heartbeat is fresh; a crashed one drops out after
// LIVE_WINDOW_MS, so a fan-out stops waiting for its answer.
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { ClusterDb } from './tables.ts'

export const HEARTBEAT_MS = 5_000
export const LIVE_WINDOW_MS = 15_000
/** rows of instances gone this long are removed by whoever beats next (they are only kept for diagnosis). */
const FORGET_AFTER_MS = 60 * 60_000

export interface InstanceInfo {
  readonly id: string
  readonly url: string
  readonly pid: number
  readonly startedAt: string
}

export interface InstanceRegistry {
  readonly id: string
  /** inserts this instance's row and starts the heartbeat. */
  register(url: string): Promise<void>
  /**
   * The instances taken as live: read from the table at every heartbeat, updated in between by what the bus says
   * (an instance announces itself when it starts and its leaving when it stops).
   */
  liveIds(): ReadonlySet<string>
  noteAlive(id: string): void
  noteGone(id: string): void
  /** the live instances with the push stats each wrote last. */
  liveRows(): Promise<ReadonlyArray<InstanceInfo & { readonly pushStats: unknown }>>
  writePushStats(stats: unknown): Promise<void>
  /** stops the heartbeat and deletes this instance's row. */
  deregister(): Promise<void>
}

const newInstanceId = (): string => randomBytes(6).toString('hex')

/**
 * `exclusive`: this process is the only one on the database (PGlite under its data-dir lock), so every other row is
 * a leftover of a process that died and is removed at once.
 */
export const createInstanceRegistry = (db: ClusterDb, options: { exclusive: boolean }): InstanceRegistry => {
  const id = newInstanceId()
  let url = ''
  let timer: NodeJS.Timeout | null = null
  let registered = false
  let live = new Set<string>()

  const fresh = sql<boolean>`heartbeat_at > now() - ${sql.lit(`${LIVE_WINDOW_MS} milliseconds`)}::interval`

  const upsert = () =>
    db.insertInto('server_instances').values({ id, url, pid: process.pid })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` }))
      .execute()

  const refresh = async (): Promise<void> => {
    const rows = await db.selectFrom('server_instances').select('id').where(fresh).execute()
    live = new Set(rows.map((r) => r.id))
    if (registered) live.add(id)
  }

  const beat = async (): Promise<void> => {
    // the row may have been forgotten after a long pause of this process: put it back
    await upsert()
    await refresh()
    await db.deleteFrom('server_instances')
      .where(sql<boolean>`heartbeat_at < now() - ${sql.lit(`${FORGET_AFTER_MS} milliseconds`)}::interval`).execute()
    await db.deleteFrom('push_payloads').where(sql<boolean>`created_at < now() - interval '10 minutes'`).execute()
  }

  return {
    id,
    async register(instanceUrl) {
      url = instanceUrl
      if (options.exclusive) await db.deleteFrom('server_instances').where('id', '!=', id).execute()
      await upsert()
      registered = true
      await refresh()
      timer = setInterval(() => {
        if (registered) beat().catch(() => undefined)
      }, HEARTBEAT_MS)
      timer.unref()
    },
    liveIds: () => live,
    noteAlive(other) {
      live.add(other)
    },
    noteGone(other) {
      if (other !== id) live.delete(other)
    },
    async liveRows() {
      const rows = await db.selectFrom('server_instances').selectAll().where(fresh).orderBy('started_at').execute()
      return rows.map((r) => ({ id: r.id, url: r.url, pid: r.pid, startedAt: new Date(r.started_at).toISOString(), pushStats: r.push_stats }))
    },
    async writePushStats(stats) {
      await db.updateTable('server_instances').set({ push_stats: JSON.stringify(stats), heartbeat_at: sql`now()` }).where('id', '=', id).execute()
    },
    async deregister() {
      registered = false
      live.delete(id)
      if (timer) clearInterval(timer)
      timer = null
      await db.deleteFrom('server_instances').where('id', '=', id).execute()
    },
  }
}
