// The exit rule (§4, decisions.md) on the real IndexedDB of a real core SharedWorker: after an exit the worker's
// database holds exactly the kept keys with their values, and a worker started afresh on that database paints a
// logged-out state with no device list and no counters.
import { afterEach, describe, expect, it } from 'vitest'
import { KEPT_ON_EXIT, StorageKey } from '../../worker/protocol/storage-keys.ts'
import type { Snapshot } from '../../worker/protocol/commands.ts'
import { DEMO, makeCoreTest, waitFor, type TestTab } from './core-fixture.ts'

const KV = 'kv'

const openDb = (name: string): Promise<IDBDatabase> =>
  new Promise((resolve, reject) => {
    const req = indexedDB.open(name)
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })

const done = (tx: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
  })

/** The worker's key-value store as the browser holds it (read through a separate connection, closed after). */
async function readKv(dbName: string): Promise<Record<string, unknown>> {
  const db = await openDb(dbName)
  try {
    const tx = db.transaction(KV, 'readonly')
    const store = tx.objectStore(KV)
    const [keys, values] = await Promise.all(
      [store.getAllKeys(), store.getAll()].map((r) => new Promise<Array<unknown>>((ok, ko) => {
        r.onsuccess = () => ok(r.result as Array<unknown>)
        r.onerror = () => ko(r.error)
      })),
    )
    await done(tx)
    return Object.fromEntries(keys!.map((k, i) => [String(k), values![i]]))
  } finally {
    db.close()
  }
}

async function writeKv(dbName: string, entries: Record<string, string>): Promise<void> {
  const db = await openDb(dbName)
  try {
    const tx = db.transaction(KV, 'readwrite')
    for (const [k, v] of Object.entries(entries)) tx.objectStore(KV).put(v, k)
    await done(tx)
  } finally {
    db.close()
  }
}

const sorted = (keys: Iterable<string>) => [...keys].sort()

const expectLoggedOutPaint = (state: Snapshot) => {
  expect(state.session).toMatchObject({ loggedIn: false, user: null, phone: null })
  expect(state.devices.list).toEqual([])
  expect(state.counters).toEqual({ my: 0, activationCode: 0, coupon: 0 })
  expect(state.announcementActive).toBe(false)
}

let cleanup: () => void = () => {}
afterEach(() => cleanup())

const exits: ReadonlyArray<[string, (tab: TestTab, t: ReturnType<typeof makeCoreTest>) => Promise<unknown>]> = [
  ['a logout', (tab) => tab.client.api.logout()],
  ['a forcedOfflineMsg push', (_tab, t) => t.pushFrame({ type: 'forcedOfflineMsg', data: { content: '您的账号已在另一台设备登录' } })],
]

describe('the exit rule on real IndexedDB', () => {
  for (const [how, exit] of exits) {
    it(`after ${how} the database keeps exactly the kept keys, and a restarted worker paints logged out`, async () => {
      const dbName = `exit-rule-${crypto.randomUUID()}`
      const t = makeCoreTest({ dbName })
      cleanup = t.closeAll
      const a = await t.open()
      expect((await a.client.api.login(DEMO)).ok).toBe(true)
      await waitFor(() => a.state().devices.list.length > 0)
      await waitFor(async () => (await t.stats()).open === 1)
      await t.pushFrame({ type: 'sendCouponMsg', data: { content: '您获得一张优惠券' } })
      await t.pushFrame({ type: 'systemAnnouncementMsg', data: { content: '系统公告' } })
      await waitFor(() => a.state().counters.coupon > 0 && a.state().announcementActive)
      // the two kept keys no code path of the core writes here, as an earlier session would have left them
      await writeKv(dbName, { [StorageKey.merchantSign]: 'merchant-1', [StorageKey.devServerLogLevel]: 'debug' })
      // the session's own keys have reached the database before the exit (so the exit has something to clear)
      await waitFor(async () => {
        const kv = await readKv(dbName)
        return [StorageKey.token, StorageKey.dataInfo, StorageKey.cardCouponPush].every((k) => k in kv)
      })
      const before = await readKv(dbName)
      expect(sorted(Object.keys(before))).toEqual(expect.arrayContaining(sorted(KEPT_ON_EXIT)))

      await exit(a, t)
      await waitFor(() => !a.state().session.loggedIn)
      let after: Record<string, unknown> = {}
      await waitFor(async () => {
        after = await readKv(dbName)
        return sorted(Object.keys(after)).join() === sorted(KEPT_ON_EXIT).join()
      }).catch(() => undefined) // the assertion below says what is left

      expect(after).toEqual(Object.fromEntries(KEPT_ON_EXIT.map((k) => [k, before[k]])))

      // a worker started afresh on this database (as after Android killed it): a new worker name, the same database
      await t.kill()
      t.closeAll()
      const restarted = makeCoreTest({ dbName })
      cleanup = restarted.closeAll
      const b = await restarted.open()
      expectLoggedOutPaint(b.state())
    }, 30_000)
  }
})
