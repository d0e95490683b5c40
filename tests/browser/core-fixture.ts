// Opens "tabs" on a real core worker in the test page: each test gets its own worker (unique name, own database)
// and its own slice of the test proxy, with the shortened timers of an explicit test config.
import { inject } from 'vitest'
import { cdp } from 'vitest/browser'
import { connectCore } from '../../src/core/connect.ts'
import type { CoreClient, WorkerLoss } from '../../src/core/types.ts'
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
  const workerName = `core-test-${testId}`
  const base = `${inject('apiUrl')}/t/${testId}`
  const config: CoreTestConfig = {
    workerName,
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
  /** requests of the API path that reached the proxy (the server) so far. */
  const exchanges = (path: string) => proxy<number>(`exchanges?path=${encodeURIComponent(path)}`)
  const delay = (path: string, ms: number) => proxy(`delay?path=${encodeURIComponent(path)}&ms=${ms}`)
  /** Kills this test's core from outside, as the OS does (see killWorkers); resolves with the time of the kill. */
  const kill = () => killWorkers(workerName)
  return { config, open, stats, pushFrame, proxy, closeAll, exchanges, delay, kill }
}

/** Polls `check` until it holds; past `timeoutMs` it fails naming `what` it waited for. */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> => {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not met in ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

interface TargetInfo { readonly targetId: string; readonly type: string; readonly title: string }
type Send = (method: string, params?: object) => Promise<unknown>

/**
 * Kills the workers whose name contains `name` through the DevTools protocol (TESTING.md): a SharedWorker's target is
 * closed (the browser destroys it as the OS would: no code of it runs, its locks are released). A dedicated Worker's
 * target cannot be closed (Chromium: "Specified target doesn't support closing"; it dies only with its page), so it is
 * frozen from outside instead: the debugger pauses it through its target (at the next script it runs), after which it
 * answers nothing, as a worker the OS froze. (An endless loop evaluated in it did the same but kept a core busy after
 * the tab terminated it.) Resolves with performance.now() as the kill went out, and how many were killed.
 */
export const killWorkers = async (name: string): Promise<{ at: number; killed: number }> => {
  const session = cdp()
  const send = session.send.bind(session) as unknown as Send
  const { targetInfos } = await send('Target.getTargets') as { targetInfos: ReadonlyArray<TargetInfo> }
  const ours = targetInfos.filter((t) => t.title.includes(name))
  // taken as the kill goes out: its answer comes back after the browser destroyed the worker (and may after a tab
  // already noticed)
  const at = performance.now()
  for (const t of ours) {
    if (t.type === 'shared_worker') {
      await send('Target.closeTarget', { targetId: t.targetId })
    } else if (t.type === 'worker') {
      const { sessionId } = await send('Target.attachToTarget', { targetId: t.targetId, flatten: false }) as { sessionId: string }
      for (const [id, method] of [[1, 'Debugger.enable'], [2, 'Debugger.pause']] as const) {
        await send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params: {} }) })
      }
    }
  }
  return { at, killed: ours.filter((t) => t.type === 'shared_worker' || t.type === 'worker').length }
}

/** Resolves with performance.now() and how, when `tab` next learns its worker died. */
export const nextLoss = (tab: TestTab): Promise<{ at: number; how: WorkerLoss }> =>
  new Promise((resolve) => {
    const stop = tab.client.onWorkerLost((how) => {
      stop()
      resolve({ at: performance.now(), how })
    })
  })

/** Resolves with performance.now() when `tab` next reattaches to a new worker. */
export const nextReattach = (tab: TestTab): Promise<number> =>
  new Promise((resolve) => {
    const stop = tab.client.onReattach(() => {
      stop()
      resolve(performance.now())
    })
  })
