// Issue 40, item 3, in a real Chromium on a real core: the push server unreachable past a whole reconnect cycle, then
// back; the browser's own `online` event in the tab brings the push back without a reload.
import { afterEach, describe, expect, it } from 'vitest'
import { cdp } from 'vitest/browser'
import { forwardOnline } from '../../src/core/forward-online.ts'
import { DEMO, makeCoreTest, waitFor } from './core-fixture.ts'

let cleanup: () => void = () => {}
afterEach(() => cleanup())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Makes Chromium fire a real `offline` then `online` at the page (the DevTools protocol's network emulation). Both
 * commands leave together: vitest's own channel to the page goes through the page's network, so a test that waited
 * for the answer to "offline" before sending "online" would never get it.
 */
const offlineThenOnline = async (): Promise<void> => {
  const session = cdp()
  const send = session.send.bind(session) as unknown as (method: string, params: object) => Promise<unknown>
  const conditions = { latency: 0, downloadThroughput: -1, uploadThroughput: -1 }
  await send('Network.enable', {})
  await Promise.all([
    send('Network.emulateNetworkConditions', { ...conditions, offline: true }),
    send('Network.emulateNetworkConditions', { ...conditions, offline: false }),
  ])
}

for (const forceDedicated of [false, true]) {
  describe(forceDedicated ? 'the dedicated-Worker fallback' : 'the SharedWorker core', () => {
    it('after the push server was unreachable past the 5 attempts, the online event brings the push back', async () => {
      const t = makeCoreTest({ forceDedicated })
      const a = await t.open()
      const stopForwarding = forwardOnline(a.client.api)
      let online = 0
      const countOnline = () => void (online += 1)
      window.addEventListener('online', countOnline)
      cleanup = () => {
        stopForwarding()
        window.removeEventListener('online', countOnline)
        t.closeAll()
      }
      await a.client.api.login(DEMO)
      await waitFor(async () => (await t.stats()).open === 1, 5000, 'the push socket open')

      await t.proxy('refuse?on=1')
      await t.proxy('drop')
      await waitFor(async () => (await t.stats()).upgrades >= 6, 8000, 'the cycle spent')
      await waitFor(() => a.state().push.status === 'closed', 4000, 'the push closed')
      // past the cycle (the test config's interval is 150 ms): no attempt more
      await sleep(1000)
      expect((await t.stats()).upgrades).toBe(6)

      // the server is back, but nothing told the core: the push stays off
      await t.proxy('refuse?on=0')
      await sleep(600)
      expect(await t.stats()).toMatchObject({ upgrades: 6, open: 0 })

      await offlineThenOnline()
      await waitFor(async () => (await t.stats()).open === 1, 5000, 'the push socket open again')
      expect(online).toBe(1)
      expect((await t.stats()).upgrades).toBe(7)
      await waitFor(() => a.state().push.status === 'open', 4000, 'the tab told the push is open')
      expect(a.state().push.reconnectAttempts).toBe(0)
      await t.pushFrame({ type: 'sendCouponMsg', data: {} })
      await waitFor(() => a.state().counters.coupon === 1, 4000, 'the push delivered')
    })
  })
}

// Why the tabs forward `online` (decisions.md): Chromium fires it at the page and at no worker. Should this fail, a
// Chromium now tells workers too, and the core could listen in its own scope.
it('Chromium fires the browser online event at the page, not in a SharedWorker or a dedicated Worker', async () => {
  const counter = `
    let online = 0
    self.addEventListener('online', () => { online += 1 })
    const answer = (port) => { port.onmessage = () => port.postMessage({ online, handler: 'ononline' in self }) }
    if ('onconnect' in self) self.onconnect = (e) => answer(e.ports[0])
    else answer(self)
  `
  const url = URL.createObjectURL(new Blob([counter], { type: 'text/javascript' }))
  const shared = new SharedWorker(url, { name: `online-probe-${crypto.randomUUID()}` })
  const dedicated = new Worker(url)
  cleanup = () => {
    shared.port.close()
    dedicated.terminate()
    URL.revokeObjectURL(url)
  }
  const ask = (target: MessagePort | Worker) =>
    new Promise<unknown>((resolve) => {
      target.onmessage = (e: MessageEvent) => resolve(e.data)
      target.postMessage(null)
    })
  // both workers are running before the network flips
  expect(await ask(shared.port)).toEqual({ online: 0, handler: false })
  expect(await ask(dedicated)).toEqual({ online: 0, handler: false })
  let page = 0
  const onPage = () => void (page += 1)
  window.addEventListener('online', onPage)
  await offlineThenOnline()
  await waitFor(() => page === 1, 2000, 'the page told online')
  await sleep(300)
  window.removeEventListener('online', onPage)
  expect(await ask(shared.port)).toEqual({ online: 0, handler: false })
  expect(await ask(dedicated)).toEqual({ online: 0, handler: false })
})
