import { afterEach, describe, expect, it } from 'vitest'
import { DEMO, makeCoreTest, waitFor } from './core-fixture.ts'

let cleanup: () => void = () => {}
afterEach(() => cleanup())

const coupon = { type: 'sendCouponMsg', data: {} }

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
      expect(a.states.map((s) => s.state.push)).toContainEqual({ status: 'open', reconnectAttempts: 0 })
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
      await waitFor(() => a.state().push.status === 'closed', 4000)
      expect((await t.stats()).upgrades).toBe(6)
      expect(Math.max(...a.states.map((s) => s.state.push.reconnectAttempts))).toBe(5)
    })

    it('reattaches to a new worker when the worker is killed (DevTools protocol) and keeps working without a reload', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      await a.client.api.login(DEMO)
      await t.kill()
      await waitFor(() => a.states.some((s) => s.replaced), 8000)
      expect(a.state().session.loggedIn).toBe(true)
      expect(await a.client.api.ping()).toBe('pong')
      const devices = await a.client.api.refreshDevices()
      expect(devices.ok).toBe(true)
    })

    it('never hangs when the worker is killed twice in a row (a restarted worker replaced before it answered)', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      await a.client.api.login(DEMO)
      await t.kill()
      await new Promise((r) => setTimeout(r, 30))
      await t.kill()
      await new Promise((r) => setTimeout(r, 30))
      await t.kill()
      await waitFor(async () => (await Promise.race([a.client.api.ping(), new Promise((r) => setTimeout(r, 300))])) === 'pong', 10_000)
      const devices = await a.client.api.refreshDevices()
      expect(devices.ok).toBe(true)
      expect(a.state().session.loggedIn).toBe(true)
    })

    it('a change in flight when the worker dies is sent again with its key and answered with the server\'s outcome (issue 40), never hangs; the next call works', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      await a.client.api.login(DEMO)
      await t.proxy('delay?path=/api/pay/v1/activation/exchangeActivationCode&ms=3000')
      const inFlight = a.client.api.call('exchangeActivationCode', { code: 'X' })
      await new Promise((r) => setTimeout(r, 100))
      await t.kill()
      // the server's own refusal of the made-up code, whichever copy brought it: not "outcome unknown", not 服务器错误
      const answer = await inFlight
      if (answer.ok) throw new Error('a made-up activation code was accepted')
      expect(answer.status).not.toBe(0)
      expect(answer.msg).not.toMatch(/操作结果未知|服务器错误/)
      const again = await a.client.api.call('noticeAll', { pageNum: 1, pageSize: 10 })
      expect(again.ok).toBe(true)
    })

    it('a worker killed during a flood: every tab reattaches, converges to one state, nothing any tab had applied is lost, and the socket reopens once', async () => {
      const t = makeCoreTest({ forceDedicated })
      cleanup = t.closeAll
      const a = await t.open()
      const b = forceDedicated ? a : await t.open()
      await a.client.api.login(DEMO)
      await waitFor(async () => (await t.stats()).open === 1)
      await t.pushFrame(coupon, 2000)
      await waitFor(() => a.state().counters.coupon === 2000 && b.state().counters.coupon === 2000, 10_000)
      // more frames on their way while the worker dies
      const flood = t.pushFrame(coupon, 2000)
      await new Promise((r) => setTimeout(r, 5))
      const before = Math.max(a.state().counters.coupon, b.state().counters.coupon)
      await t.kill()
      await flood
      await waitFor(async () => (await t.stats()).open === 1 && (await t.stats()).opened === 2, 10_000)
      await t.pushFrame(coupon, 1000)
      await waitFor(() => a.state().seq === b.state().seq && a.state().counters.coupon >= before + 1000, 10_000)
      expect(b.state()).toEqual(a.state())
      expect(a.state().counters.coupon).toBeGreaterThanOrEqual(before + 1000)
      expect((await t.stats()).opened).toBe(2)
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
    await waitFor(() => hidden.state().push.status === 'closed')
  })

  it('stops delivering to a closed tab while the others keep receiving', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    b.client.close()
    const before = b.states.length
    await a.client.api.login(DEMO)
    await waitFor(() => a.state().devices.list.length > 0)
    expect(b.states.length).toBe(before)
  })

  it('reattaches every tab to one new worker after the shared worker is killed', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    await t.kill()
    await waitFor(() => a.states.some((s) => s.replaced) && b.states.some((s) => s.replaced), 8000)
    await a.client.api.login(DEMO)
    await waitFor(() => b.state().session.loggedIn)
  })

  it('delivers 3 000 pushes to three tabs exactly, and the count survives a killed worker', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const tabs = [await t.open(), await t.open(), await t.open()]
    await tabs[0].client.api.login(DEMO)
    await waitFor(async () => (await t.stats()).open === 1)
    await t.pushFrame(coupon, 3000)
    await waitFor(() => tabs.every((x) => x.state().counters.coupon === 3000), 10_000)
    await t.kill()
    await waitFor(async () => (await t.stats()).opened === 2 && (await t.stats()).open === 1, 10_000)
    await t.pushFrame(coupon, 2000)
    await waitFor(() => tabs.every((x) => x.state().counters.coupon === 5000), 10_000)
  })

  it('delivers a push message to every tab (systemAnnouncementMsg)', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    await a.client.api.login(DEMO)
    await waitFor(async () => (await t.stats()).open === 1)
    await t.pushFrame({ type: 'systemAnnouncementMsg', data: {} })
    await waitFor(() => b.state().announcementActive && a.state().announcementActive)
  })
})
