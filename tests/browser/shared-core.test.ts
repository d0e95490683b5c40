import { afterEach, describe, expect, it } from 'vitest'
import { DEMO, makeCoreTest, waitFor } from './core-fixture.ts'

let cleanup: () => void = () => {}
afterEach(() => cleanup())

describe('the core in a SharedWorker', () => {
  it('serves two tabs from one worker with the same snapshot and the same events', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    expect(a.client.mode).toBe('shared')
    expect(b.client.snapshot.seq).toBeGreaterThanOrEqual(a.client.snapshot.seq)
    await waitFor(() => a.tagged('SystemNameChanged').length + (a.client.snapshot.systemName ? 1 : 0) > 0)
    const result = await a.client.api.login(DEMO)
    expect(result.ok).toBe(true)
    await waitFor(() => b.tagged('DeviceListLoaded').length > 0 && a.tagged('DeviceListLoaded').length > 0)
    const seqs = (events: typeof a.events) => events.filter((d) => d.seq !== null && d.seq > b.client.snapshot.seq).map((d) => d.seq)
    expect(seqs(b.events)).toEqual(seqs(a.events).slice(0, seqs(b.events).length))
  })

  it('shows a login made through one tab to the other tab', async () => {
    const t = makeCoreTest()
    cleanup = t.closeAll
    const a = await t.open()
    const b = await t.open()
    expect(b.client.snapshot.session.loggedIn).toBe(false)
    const r = await a.client.api.login(DEMO)
    expect(r).toMatchObject({ ok: true, data: { phone: DEMO.phone } })
    await waitFor(() => b.tagged('SessionChanged').some((e) => e._tag === 'SessionChanged' && e.loggedIn))
    await waitFor(() => b.tagged('DeviceListLoaded').some((e) => e._tag === 'DeviceListLoaded' && e.devices.length > 0))
  })
})
