// Operator controls and app serving: maintenance toggled through ops shows in getRoomMaintenanceMsg, ops refuses
// callers without the token, the built app is served under the base path with cache and isolation headers.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opsMaintenance, opsTargetFromEnv, runOps } from '../../../server/ops.ts'
import { api, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
let appDir: string

beforeAll(async () => {
  appDir = mkdtempSync(join(tmpdir(), 'cloud-phone-dist-'))
  mkdirSync(join(appDir, 'assets'))
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>星云云手机</title><script type="module" src="./assets/index-Ab12Cd34.js"></script>')
  writeFileSync(join(appDir, 'assets', 'index-Ab12Cd34.js'), `console.log(${JSON.stringify('x'.repeat(4000))})`)
  t = await startTestServer({ serveApp: true, appDir })
  base = t.server.url
}, 60_000)
afterAll(async () => {
  await t?.stop()
  rmSync(appDir, { recursive: true, force: true })
})

const maintenance = async () =>
  (await api<{ maintenanceSwitch: boolean; maintenanceContent: string; showTime: string }>(base, 'GET', '/api/public/v1/room/getRoomMaintenanceMsg')).body.data

describe('ops', () => {
  it('maintenance on and off through ops is reflected in getRoomMaintenanceMsg', async () => {
    expect(await runOps(['maintenance', 'on', '机房升级', '2026-05-01 06:00'], t.ops)).toContain('维护已开启')
    expect(await maintenance()).toEqual({ maintenanceSwitch: true, maintenanceContent: '机房升级', showTime: '2026-05-01 06:00' })
    await runOps(['maintenance', 'off'], t.ops)
    expect((await maintenance()).maintenanceSwitch).toBe(false)
  })

  it('the maintenance host\'s GET (§7) answers the same message, without a token', async () => {
    await opsMaintenance(t.ops, true)
    const host = (await api<{ maintenanceSwitch: boolean }>(base, 'GET', '/maintenance/v1/message')).body
    expect(host.status).toBe(0)
    expect(host.data).toEqual(await maintenance())
    expect(host.data.maintenanceSwitch).toBe(true)
    await opsMaintenance(t.ops, false)
  })

  it('maintenance on without content gets a default Chinese content and an end time', async () => {
    const msg = await opsMaintenance(t.ops, true)
    expect(msg.maintenanceContent).toMatch(/维护/)
    expect(msg.showTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    await opsMaintenance(t.ops, false)
  })

  it('the ops token is written to the data dir and found through DATA_DIR', () => {
    const target = opsTargetFromEnv({ DATA_DIR: t.dataDir, PORT: String(t.server.port) })
    expect(target).toEqual({ url: base, token: readFileSync(join(t.dataDir, 'ops-token'), 'utf8') })
  })

  it('ops endpoints refuse a caller without the token', async () => {
    const response = await fetch(`${base}/__ops/connections`)
    expect(response.status).toBe(401)
    await expect(runOps(['connections'], { url: base, token: 'wrong' })).rejects.toThrow('运维令牌无效')
  })

  it('connections --json reports totals, per-user counters and each instance', async () => {
    const report = JSON.parse(await runOps(['connections', '--json'], t.ops))
    expect(report).toMatchObject({ total: 0, users: [], instances: [{ id: t.server.hub.instanceId, url: base, pid: process.pid, total: 0, users: [] }] })
    expect(report.instances).toHaveLength(1)
  })

  it('an unknown command prints the usage', async () => {
    await expect(runOps(['frobnicate'], t.ops)).rejects.toThrow('用法')
  })
})

describe('serving the app', () => {
  it('the root redirects to the base path', async () => {
    const response = await fetch(`${base}/`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/cloud/phone/web/')
  })

  it('the base path serves index.html, not cached, cross-origin isolated', async () => {
    const response = await fetch(`${base}/cloud/phone/web/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
    expect(await response.text()).toContain('星云云手机')
  })

  it('hashed assets get a JavaScript content type, a year of cache and gzip when accepted', async () => {
    const response = await fetch(`${base}/cloud/phone/web/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'gzip' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(await response.text()).toContain('console.log')
  })

  it('a missing asset is a 404 and a path outside the app folder is not served', async () => {
    expect((await fetch(`${base}/cloud/phone/web/assets/missing-00000000.js`)).status).toBe(404)
    expect((await fetch(`${base}/cloud/phone/web/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404)
  })

  it('the API keeps working next to the app', async () => {
    expect((await api(base, 'GET', '/api/public/v1/system/config')).body.status).toBe(0)
  })
})
