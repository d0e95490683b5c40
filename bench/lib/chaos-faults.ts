// The chaos part's faults (bench/parts/chaos.ts), one at a time, each timed from the moment it hit until it healed:
// the app is back to normal service as the customer would see it (definitions in FAULTS).
import type { BrowserContext, Page } from 'playwright-core'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ChaosWorld } from './chaos-world.ts'
import { between, emptySlot, fillSlot, type Rng, type Slot } from './chaos-script.ts'
import { killWorkers } from './kill-worker.ts'
import { control, openTab } from './tabs.ts'

export type FaultKind = 'kill' | 'drop' | 'restart' | 'cut' | 'reopen' | 'freeze'

export const FAULTS: Record<FaultKind, string> = {
  kill: 'SharedWorker killed (CDP Target.closeTarget) -> a new push socket at the server and a read answered in every tab',
  drop: 'push socket dropped at the proxy -> a new push socket at the server',
  restart: 'server restarted (graceful stop, new process, same port and data) -> a new push socket and a read answered in every tab',
  cut: 'a write\'s answer cut after the server applied it -> the same answer (its stored outcome) delivered to the app',
  reopen: 'a tab closed, another opened 0.5-2 s later -> the new tab attached with its push status open',
  freeze: 'a tab frozen 2-6 s (CDP Page.setWebLifecycleState) -> back active, its state caught up with the others\'',
}

export interface FaultSample {
  readonly kind: FaultKind
  readonly at: number
  /** ms from the fault to healed; null: it did not heal within HEAL_LIMIT_MS (or, cut, never hit a write). */
  readonly healMs: number | null
  readonly note?: string
  /** a cut armed when no write came (or the server, away, answered none): nothing was cut. */
  readonly missed?: boolean
}

const HEAL_LIMIT_MS = 45_000
const CUT_PATHS = [catalogue.orderCreate.path, catalogue.starCoinsSpend.path, catalogue.exchangeActivationCode.path]

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const until = async (probe: () => Promise<boolean>, limitMs = HEAL_LIMIT_MS): Promise<boolean> => {
  const deadline = Date.now() + limitMs
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return true
    await sleep(50)
  }
  return false
}

interface View { readonly seq: number; readonly loggedIn: boolean; readonly push: string }
export const viewOf = (page: Page) => control(page, 'chaosView') as Promise<(View & { devices: Array<{ userCardId: number; diskName: string; validTime: number }> }) | null>

const readOk = async (page: Page): Promise<boolean> => ((await control(page, 'call', 'getSystemTime', {})) as { ok: boolean }).ok

const live = (slots: ReadonlyArray<Slot>): Page[] => slots.flatMap((s) => (s.page === null ? [] : [s.page]))

export interface FaultDeps {
  readonly world: ChaosWorld
  readonly context: BrowserContext
  readonly slots: ReadonlyArray<Slot>
  readonly tabUrl: string
  readonly rng: Rng
}

const socketBack = (world: ChaosWorld, openedBefore: number) => () => {
  const s = world.proxy.pushStats()
  return Promise.resolve(s.opened > openedBefore && s.open >= 1)
}

const servedEverywhere = (slots: ReadonlyArray<Slot>) => async () => (await Promise.all(live(slots).map(readOk))).every(Boolean)

export const openChaosTab = async (context: BrowserContext, url: string): Promise<Page> => {
  const page = await openTab(context, url)
  if (!(await until(async () => (await viewOf(page))?.push === 'open', 60_000))) throw new Error('a chaos tab\'s push socket did not open')
  return page
}

export const applyFault = async (kind: FaultKind, d: FaultDeps): Promise<FaultSample> => {
  const at = Date.now()
  const opened = d.world.proxy.pushStats().opened
  const timed = async (healed: () => Promise<boolean>, from = at, note?: string): Promise<FaultSample> =>
    ((await until(healed)) ? { kind, at, healMs: Date.now() - from, ...(note ? { note } : {}) } : { kind, at, healMs: null, note: note ?? 'did not heal' })
  switch (kind) {
    case 'kill': {
      await killWorkers(live(d.slots)[0]!, 'bench-chaos')
      const back = socketBack(d.world, opened)
      const served = servedEverywhere(d.slots)
      return timed(async () => (await back()) && (await served()))
    }
    case 'drop':
      d.world.proxy.drop()
      return timed(socketBack(d.world, opened))
    case 'restart': {
      const awayMs = await d.world.restart()
      const back = socketBack(d.world, d.world.proxy.pushStats().opened)
      const served = servedEverywhere(d.slots)
      return timed(async () => (await back()) && (await served()), at, `server away ${awayMs} ms`)
    }
    case 'cut': {
      const path = CUT_PATHS[between(d.rng, 0, CUT_PATHS.length - 1)]!
      const before = d.world.proxy.exchanges(path).length
      d.world.proxy.rewrite(path, { cutAnswer: true })
      const hit = await until(async () => (d.world.proxy.exchanges(path)[before]?.answeredAt ?? -1) > 0, 15_000)
      if (!hit) {
        d.world.proxy.clear(path)
        return { kind, at, healMs: null, note: path, missed: true }
      }
      const cut = d.world.proxy.exchanges(path)[before]!
      // the server answers a repeat of the key with the stored outcome: the same body, order numbers included
      return timed(async () => d.world.proxy.exchanges(path).slice(before + 1).some((e) => e.answeredAt > 0 && e.body === cut.body), cut.answeredAt, path)
        .then((sample) => ({ ...sample, note: path }))
    }
    case 'reopen': {
      const slot = d.slots[between(d.rng, 0, d.slots.length - 1)]!
      const page = slot.page!
      emptySlot(slot)
      await page.close()
      await sleep(between(d.rng, 500, 2_000))
      fillSlot(slot, await openChaosTab(d.context, d.tabUrl))
      return { kind, at, healMs: Date.now() - at }
    }
    case 'freeze': {
      const i = between(d.rng, 0, d.slots.length - 1)
      const page = d.slots[i]!.page!
      const cdp = await d.context.newCDPSession(page)
      await cdp.send('Page.setWebLifecycleState', { state: 'frozen' })
      await sleep(between(d.rng, 2_000, 6_000))
      await cdp.send('Page.setWebLifecycleState', { state: 'active' })
      await cdp.detach().catch(() => undefined)
      const woke = Date.now()
      const other = d.slots.find((s, j) => j !== i && s.page !== null)?.page
      const target = other ? ((await viewOf(other))?.seq ?? 0) : 0
      return timed(async () => ((await viewOf(page))?.seq ?? -1) >= target, woke)
    }
  }
}
