import { afterEach, describe, expect, it } from 'vitest'
import { DEMO, makeCoreTest, waitFor } from './core-fixture.ts'

let cleanup: () => void = () => {}
afterEach(() => cleanup())

describe('the core in a SharedWorker', () => {
  it('serves two tabs from one worker: the same state after every change', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    expect(a.client.mode).toBe('shared')
    await waitFor(() => a.state().systemName !== null && b.state().systemName !== null, 5000, 'both tabs booted')
    const result = await a.client.api.login(DEMO)
    expect(result.ok).toBe(true)
    await waitFor(() => a.state().devices.list.length > 0 && b.state().devices.list.length > 0, 5000, 'both tabs list devices')
    await waitFor(() => a.state().seq === b.state().seq, 5000, 'both tabs at one seq')
    expect(b.state()).toEqual(a.state())
  })

  it('shows a login made through one tab to the other tab', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    expect(b.state().session.loggedIn).toBe(false)
    const r = await a.client.api.login(DEMO)
    expect(r).toMatchObject({ ok: true, data: { phone: DEMO.phone } })
    await waitFor(() => b.state().session.loggedIn && b.state().devices.list.length > 0)
  })
})
