// One screen per phone across the instances of a deployment: the instance holding a phone's lease (a row of
// device_stream_leases) renders and encodes it; the others relay its stream. A lease is refreshed by its holder while
// the phone has viewers and released when it has none; an expired lease, or one whose instance's heartbeat is stale
// (server/cluster/instances.ts), is taken over.
import { sql, type Kysely } from 'kysely'
import { LIVE_WINDOW_MS } from '../../cluster/instances.ts'

export const LEASE_MS = 20_000
export const LEASE_REFRESH_MS = 5_000

export type Placement = { readonly local: true } | { readonly local: false; readonly url: string } | { readonly local: false; readonly url: null }

export interface PhoneLeases {
  /** takes the phone's lease when it is free (or ours), else says where its screen is made. */
  claim(deviceId: number): Promise<Placement>
  /** refreshes the leases of the phones this instance holds. */
  refresh(deviceIds: ReadonlyArray<number>): Promise<void>
  release(deviceId: number): Promise<void>
}

const live = sql.lit(`${LIVE_WINDOW_MS} milliseconds`)
const ttl = sql.lit(`${LEASE_MS} milliseconds`)

export const createPhoneLeases = (db: Kysely<any>, instanceId: () => string): PhoneLeases => ({
  async claim(deviceId) {
    const me = instanceId()
    const taken = await sql<{ instance_id: string }>`
      insert into device_stream_leases (device_id, instance_id, expires_at) values (${deviceId}, ${me}, now() + ${ttl}::interval)
      on conflict (device_id) do update set instance_id = excluded.instance_id, expires_at = excluded.expires_at
      where device_stream_leases.instance_id = ${me} or device_stream_leases.expires_at < now()
        or not exists (select 1 from server_instances i where i.id = device_stream_leases.instance_id and i.heartbeat_at > now() - ${live}::interval)
      returning instance_id`.execute(db)
    if (taken.rows.length > 0) return { local: true }
    const owner = await sql<{ url: string | null }>`
      select i.url from device_stream_leases l left join server_instances i on i.id = l.instance_id where l.device_id = ${deviceId}`.execute(db)
    const url = owner.rows[0]?.url ?? null
    return { local: false, url: url || null }
  },
  async refresh(deviceIds) {
    if (deviceIds.length === 0) return
    await sql`update device_stream_leases set expires_at = now() + ${ttl}::interval
      where instance_id = ${instanceId()} and device_id in (${sql.join(deviceIds)})`.execute(db)
  },
  async release(deviceId) {
    await sql`delete from device_stream_leases where device_id = ${deviceId} and instance_id = ${instanceId()}`.execute(db)
  },
})

/** A single process with no registry (tests of the stream alone): every phone is local. */
export const localLeases: PhoneLeases = {
  claim: async () => ({ local: true }),
  refresh: async () => undefined,
  release: async () => undefined,
}
