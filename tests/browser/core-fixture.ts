// Opens "tabs" on a real core worker in the test page: each test gets its own worker (unique name, own database)
// and its own slice of the test proxy, with the shortened timers of an explicit test config.
import { inject } from 'vitest'
import { connectCore } from '../../src/core/connect.ts'
import type { CoreClient } from '../../src/core/types.ts'
import type { CoreTestConfig } from '../../worker/config/core-config.ts'
import type { Snapshot } from '../../worker/protocol/commands.ts'
import type { EffectEvent } from '../../worker/protocol/events.ts'

export const DEMO = { phone: '13800138000', password: 'Demo@2026' }
export const HOME = { path: '/pages/index/index', search: {} }

export interface TestTab {
  readonly client: CoreClient
  /** every state the tab went through, and whether a snapshot replaced the state then. */
  readonly states: Array<{ readonly state: Snapshot; readonly replaced: boolean }>
  readonly effects: Array<EffectEvent>
  readonly state: () => Snapshot
}

export const makeCoreTest = (extra: Partial<CoreTestConfig> = {}) => {
  const testId = crypto.randomUUID()
  const base = `${inject('apiUrl')}/t/${testId}`
  const config: CoreTestConfig = {
    workerName: `core-test-${testId}`,
    apiBaseUrl: base,
    heartbeatMs: 150,
    reconnectMs: 150,
    pingIntervalMs: 150,
    pingTimeoutMs: 600,
    exitRedirectDelayMs: 20,
    ...extra,
  }
  const opened: Array<TestTab> = []
  const open = async (visible = true): Promise<TestTab> => {
    globalThis.__CORE_TEST_CONFIG__ = config
    const client = await connectCore({ channelCode: null, route: HOME, visible })
    globalThis.__CORE_TEST_CONFIG__ = undefined
    const states: TestTab['states'] = []
    const effects: Array<EffectEvent> = []
    client.onState((state, replaced) => states.push({ state, replaced }))
    client.onEffect((e) => effects.push(e))
    const tab: TestTab = { client, states, effects, state: () => client.state() }
    opened.push(tab)
    return tab
  }
  const proxy = async <A>(path: string, init?: RequestInit): Promise<A> => (await fetch(`${base}/__proxy/${path}`, init)).json() as Promise<A>
  const stats = () => proxy<{ upgrades: number; streamUpgrades: number; opened: number; keepAlives: number; open: number }>('stats')
  const pushFrame = (frame: unknown, count = 1) => proxy<number>(`push?count=${count}`, { method: 'POST', body: JSON.stringify(frame) })
  const closeAll = () => opened.forEach((t) => t.client.close())
  return { config, open, stats, pushFrame, proxy, closeAll }
}

export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> => {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}
