// Two server processes on one PostgreSQL behind a round-robin balancer: one of them is stopped with SIGTERM and
// started again while clients keep calling (logins, device lists, visit writes). No request is lost or fails; the
// stopping instance finishes what it had in flight, closes its push socket with 1012, and the client that reconnects
// through the balancer gets the next push from whichever instance it lands on.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { CLOSE_SERVICE_RESTART } from '../../../server/push/hub.ts'
import { opsConnections, opsPush, type OpsTarget } from '../../../server/ops.ts'
import { startRoundRobinProxy, type RoundRobinProxy } from '../../support/round-robin-proxy.ts'
import { startedRequest, startServerProcess, type ServerProcess } from '../../support/server-process.ts'
import { testDatabase, type TestDatabase } from '../../support/test-database.ts'
import { api, login, loginToken, openSocket, pushUrl } from '../server/helpers.ts'

const OPS_TOKEN = 'restart-test-ops-token'
let database: TestDatabase
const dataDirs: string[] = []
const processes: ServerProcess[] = []
let proxy: RoundRobinProxy

const startInstance = async (): Promise<ServerProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cloud-phone-restart-'))
  dataDirs.push(dataDir)
  const p = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl!, OPS_TOKEN })
  processes.push(p)
  return p
}
const opsOf = (p: ServerProcess): OpsTarget => ({ url: p.url, token: OPS_TOKEN })

beforeAll(async () => {
  database = await testDatabase('restart')
  // one after the other: the first migrates and seeds, and a cold start is slow enough on a loaded machine
  processes.length = 0
  await startInstance()
  await startInstance()
  proxy = await startRoundRobinProxy(processes.map((p) => p.url))
}, 500_000)

afterAll(async () => {
  await proxy?.close()
  await Promise.all(processes.map((p) => p.stop('SIGKILL')))
  await database?.drop()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

interface Outcome {
  readonly what: string
  readonly ok: boolean
  readonly detail: string
}

it('no request is lost while one of two instances restarts under load, and push sockets move over', async () => {
  const [first, second] = processes as [ServerProcess, ServerProcess]
  const { token, username } = await loginToken(proxy.url, '13800138000')

  // two sockets opened back to back through the balancer: one on each instance
  const sockets = [0, 1].map(() => openSocket(pushUrl(proxy.url, { deviceId: `dev-${Math.random()}`, username, Authorization: token })))
  for (const s of sockets) await s.opened()
  const perInstance = (await opsConnections(opsOf(second))).instances.map((i) => i.total)
  expect(perInstance).toEqual([1, 1])

  const outcomes: Outcome[] = []
  let running = true
  const record = (what: string, ok: boolean, detail: string) => outcomes.push({ what, ok, detail })
  const client = async (n: number): Promise<void> => {
    for (let i = 0; running; i++) {
      try {
        if ((n + i) % 3 === 0) {
          // the slow one (RSA decrypt and scrypt): most likely to be in flight when the signal comes
          const r = await login(proxy.url, '13700137000', 'Demo@2026')
          record('login', r.http === 200 && r.body.status === 0, r.text.slice(0, 120))
        } else if ((n + i) % 3 === 1) {
          const r = await api<unknown[]>(proxy.url, 'GET', catalogue.getDeviceList.path, { token })
          record('getDeviceList', r.http === 200 && r.body.status === 0 && r.body.data.length === 5, r.text.slice(0, 120))
        } else {
          const r = await api<number>(proxy.url, 'POST', catalogue.operationVisitDetailed.path, { token, body: { uuid: `load-${n}`, operationType: 1 } })
          record('visit', r.http === 200 && r.body.status === 0, r.text.slice(0, 120))
        }
      } catch (error) {
        const last = proxy.forwarded.filter((f) => f.endedAt >= Date.now() - 2_000).slice(-3)
        const refusals = proxy.refused.filter((r) => r.at >= Date.now() - 2_000)
        record('transport', false, `${String(error)}; last answers: ${JSON.stringify(last)}; refusals: ${JSON.stringify(refusals)}; instances: ${JSON.stringify(processes.map((p) => p.url))}`)
      }
    }
  }
  const load = Array.from({ length: 6 }, (_, n) => client(n))

  const atLeast = async (n: number) => {
    const deadline = Date.now() + 60_000
    while (outcomes.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  }
  await atLeast(40)

  // a request the first instance has begun (it answered 100 Continue to the headers) when the signal comes; its
  // body follows after the signal, and the answer must still come
  const { continued, finish } = startedRequest(first.url, catalogue.operationVisitDetailed.path, token, { uuid: 'in-flight', operationType: 1 })
  await continued
  // SIGTERM the first instance while the load runs, and start it again
  const exitCode = first.stop('SIGTERM')
  await first.printed('收到 SIGTERM')
  const inFlight = finish()
  expect(await exitCode).toBe(0)
  const stoppedAt = Date.now()
  const restarted = await startInstance()
  proxy.setUpstreams([restarted.url, second.url])
  const countAtRestart = outcomes.length
  await atLeast(countAtRestart + 40)
  running = false
  await Promise.all(load)

  // nothing failed, and the stopping instance finished requests it had in flight when the signal came
  expect(outcomes.filter((o) => !o.ok)).toEqual([])
  expect(await inFlight).toMatchObject({ http: 200, status: 0 })
  expect(proxy.forwarded.some((f) => f.upstream === new URL(restarted.url).origin && f.startedAt > stoppedAt)).toBe(true)

  // the socket the first instance held was closed with "service restart"; the other one stayed up
  const closed = sockets.filter((s) => s.closeCode !== null)
  expect(closed.map((s) => s.closeCode)).toEqual([CLOSE_SERVICE_RESTART])
  const survivor = sockets.find((s) => s.closeCode === null)!
  // the client reconnects through the balancer and gets the next push, fired at either instance
  const reconnected = openSocket(pushUrl(proxy.url, { deviceId: 'dev-again', username, Authorization: token }))
  await reconnected.opened()
  expect(await opsPush(opsOf(restarted), '13800138000', 'sendCouponMsg', { content: '重连后' })).toBe(2)
  for (const s of [survivor, reconnected]) {
    await s.until(() => s.frames.length > 0)
    expect(s.frames).toEqual([{ type: 'sendCouponMsg', data: { content: '重连后' } }])
  }
  const report = await opsConnections(opsOf(second))
  expect(report.instances.map((i) => i.url).sort()).toEqual([restarted.url, second.url].sort())
  survivor.close()
  reconnected.close()
}, 600_000)
