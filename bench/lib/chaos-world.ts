// The chaos part's own world (bench/parts/chaos.ts): a reference server on a fixed port and data folder, so it can be
// restarted where it was, serving the bench pages itself; the test proxy in front (cut answers, dropped sockets); and
// the server's own records of the demo account, read straight from its database.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestProxy, type TestProxy } from '../../tests/support/test-proxy.ts'
import { startReferenceServer, DEMO_PHONE, type ReferenceServer } from './reference-server.ts'

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const probe = createServer()
  probe.once('error', reject)
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number }
    probe.close(() => resolve(port))
  })
})

export interface ChaosWorld {
  readonly proxy: TestProxy
  readonly server: () => ReferenceServer
  /** graceful stop, then a new server process on the same port and data folder; ms the server was away. */
  readonly restart: () => Promise<number>
  readonly query: <T>(sql: string) => Promise<T[]>
  readonly close: () => Promise<void>
}

export const startChaosWorld = async (appDir: string): Promise<ChaosWorld> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-chaos-'))
  const port = await freePort()
  const start = () => startReferenceServer({ port, dataDir, appDir })
  let server = await start()
  const proxy = await startTestProxy(server.url)
  return {
    proxy,
    server: () => server,
    restart: async () => {
      const t = Date.now()
      await server.close()
      server = await start()
      return Date.now() - t
    },
    query: (sql) => server.request({ kind: 'query', sql }),
    close: async () => {
      await Promise.allSettled([proxy.close(), server.close()])
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export const DEMO_USER_SQL = `(select id from users where phone = '${DEMO_PHONE}')`

/** What the server holds of the demo account: every figure the part checks is read from here. */
export interface ServerRecords {
  readonly orders: ReadonlyArray<{ my_order_num: string; buy_type: number; disk_names: string; android_version: string; finish_pay: number; pay_type: number | null; star_coin: number; user_card_ids: string; day: number }>
  /** the account's devices as its list shows them: its own and those authorised to it. */
  readonly devices: ReadonlyArray<{ user_card_id: number; disk_name: string; expires_ms: number }>
  readonly coupons: ReadonlyArray<{ source: string }>
  /** star coins spent (records), from the part's start. */
  readonly spent: { n: number; sum: number }
  readonly nowMs: number
}

export const readRecords = async (world: ChaosWorld, since: Date): Promise<ServerRecords> => {
  const from = `'${since.toISOString()}'::timestamptz`
  const [orders, devices, coupons, spent, now] = await Promise.all([
    world.query<ServerRecords['orders'][number]>(`select my_order_num, buy_type, disk_names, android_version, finish_pay, pay_type, star_coin, user_card_ids, day
      from orders where user_id = ${DEMO_USER_SQL} and ctime >= ${from}`),
    world.query<{ user_card_id: number; disk_name: string; expires_ms: string }>(`select user_card_id, disk_name, extract(epoch from expires_at) * 1000 as expires_ms
      from devices d where d.owner_id = ${DEMO_USER_SQL}
      or exists (select 1 from device_auths a where a.device_id = d.id and a.grantee_id = ${DEMO_USER_SQL})`),
    world.query<{ source: string }>(`select source from account_coupons where user_id = ${DEMO_USER_SQL} and source like 'activation:%'`),
    world.query<{ n: string; sum: string | null }>(`select count(*) as n, sum(amount) as sum from account_star_coin_records
      where user_id = ${DEMO_USER_SQL} and kind = 2 and created_at >= ${from}`),
    world.query<{ ms: string }>(`select extract(epoch from now()) * 1000 as ms`),
  ])
  return {
    orders,
    devices: devices.map((d) => ({ user_card_id: Number(d.user_card_id), disk_name: d.disk_name, expires_ms: Number(d.expires_ms) })),
    coupons,
    spent: { n: Number(spent[0]?.n ?? 0), sum: Number(spent[0]?.sum ?? 0) },
    nowMs: Number(now[0]!.ms),
  }
}
