import { afterEach, describe, expect, it } from 'vitest'
import { DEMO, makeCoreTest, waitFor } from './core-fixture.ts'

let cleanup: () => void = () => {}
afterEach(() => cleanup())

for (const forceDedicated of [false, true]) {
  describe(forceDedicated ? 'the dedicated-Worker fallback' : 'the SharedWorker core', () => {
    it('opens the push socket after login and sends keepAlive frames on the heartbeat', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      expect(a.client.mode).toBe(forceDedicated ? 'dedicated' : 'shared')
      await a.client.api.login(DEMO)
      await waitFor(async () => (await t.stats()).keepAlives >= 3)
      expect((await t.stats()).opened).toBe(1)
      expect(a.tagged('PushStatusChanged')).toContainEqual({ _tag: 'PushStatusChanged', status: 'open', reconnectAttempts: 0 })
    })

    it('reconnects after the server drops the socket and gives up after 5 attempts', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      await a.client.api.login(DEMO)
      await waitFor(async () => (await t.stats()).open === 1)
      await t.proxy('refuse?on=1')
      await t.proxy('drop')
      await waitFor(async () => (await t.stats()).upgrades >= 6, 8000)
      await new Promise((r) => setTimeout(r, 600))
      expect((await t.stats()).upgrades).toBe(6)
      const attempts = a.tagged('PushStatusChanged').map((e) => (e._tag === 'PushStatusChanged' ? e.reconnectAttempts : -1))
      expect(Math.max(...attempts)).toBe(5)
      expect(a.tagged('PushStatusChanged').at(-1)).toMatchObject({ status: 'closed' })
    })

    it('reattaches to a new worker when the worker is killed and keeps working without a reload', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      await a.client.api.login(DEMO)
      void a.client.api.__terminate()
      await waitFor(() => a.snapshots.length > 0, 8000)
      expect(a.snapshots.at(-1)?.session.loggedIn).toBe(true)
      expect(await a.client.api.ping()).toBe('pong')
      const devices = await a.client.api.refreshDevices()
      expect(devices.ok).toBe(true)
    })
  })
}

describe('several tabs on one SharedWorker', () => {
  it('opens one push socket for three tabs', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    await t.open()
    await t.open()
    await a.client.api.login(DEMO)
    await waitFor(async () => (await t.stats()).keepAlives >= 2)
    expect(await t.stats()).toMatchObject({ opened: 1, open: 1 })
  })

  it('releases a closed tab (Web Locks): its visibility no longer keeps the socket open', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const hidden = await t.open(false)
    const visible = await t.open(true)
    await hidden.client.api.login(DEMO)
    await waitFor(async () => (await t.stats()).open === 1)
    visible.client.close()
    await waitFor(async () => (await t.stats()).open === 0)
    await waitFor(() => hidden.tagged('PushStatusChanged').at(-1)?._tag === 'PushStatusChanged' &&
      (hidden.tagged('PushStatusChanged').at(-1) as { status: string }).status === 'closed')
  })

  it('stops delivering to a closed tab while the others keep receiving', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    b.client.close()
    const before = b.events.length
    await a.client.api.login(DEMO)
    await waitFor(() => a.tagged('DeviceListLoaded').length > 0)
    expect(b.events.length).toBe(before)
  })

  it('reattaches every tab to one new worker after the shared worker is killed', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    void a.client.api.__terminate()
    await waitFor(() => a.snapshots.length > 0 && b.snapshots.length > 0, 8000)
    await a.client.api.login(DEMO)
    await waitFor(() => b.tagged('SessionChanged').some((e) => e._tag === 'SessionChanged' && e.loggedIn))
  })

  it('delivers a push message to every tab (systemAnnouncementMsg)', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    await a.client.api.login(DEMO)
    await waitFor(async () => (await t.stats()).open === 1)
    await t.pushFrame({ type: 'systemAnnouncementMsg', data: {} })
    await waitFor(() => b.tagged('AnnouncementFlagChanged').length > 0 && a.tagged('AnnouncementFlagChanged').length > 0)
  })
})
