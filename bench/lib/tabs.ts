// Opens bench tabs (bench/pages/dispatch.html) in one browser context and drives them through window.__bench.
import type { BrowserContext, Page } from 'playwright-core'
import type { TabDump, TabProgress } from '../pages/recorder.ts'

/** product: the core in its SharedWorker; dedicated: the core's dedicated-Worker fallback; the rest are baselines. */
export type DeliveryPath = 'product' | 'dedicated' | 'socket' | 'comlink' | 'port'

export const isProduct = (path: DeliveryPath): boolean => path === 'product' || path === 'dedicated'

export const openTab = async (context: BrowserContext, url: string, timeoutMs = 60_000): Promise<Page> => {
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(url, { waitUntil: 'load', timeout: timeoutMs })
  await page.waitForFunction(() => window.__bench !== undefined || window.__benchError !== undefined, null, { timeout: timeoutMs })
  const failed = await page.evaluate(() => window.__benchError)
  if (failed) throw new Error(`bench tab failed to start: ${failed}`)
  if (errors.length) throw new Error(`bench tab page error: ${errors[0]}`)
  return page
}

export const resetTabs = async (pages: ReadonlyArray<Page>, count: number): Promise<void> => {
  await Promise.all(pages.map((p) => p.evaluate((n) => window.__bench!.reset(n), count)))
}

export const tabProgress = (pages: ReadonlyArray<Page>): Promise<TabProgress[]> =>
  Promise.all(pages.map((p) => p.evaluate(() => window.__bench!.progress())))

/** every tab's store shows exactly the reset counter + count (and React rendered it, with commits). */
export const allExact = (progress: ReadonlyArray<TabProgress>, count: number, commits: boolean): boolean =>
  progress.every((x) => x.counter === x.base + count && (!commits || x.committed >= count))

export interface WaitOptions {
  /** give up when no tab's counter moved for this long. */
  readonly stallMs: number
  /** and in any case after this long. */
  readonly maxMs: number
  readonly commits: boolean
}

/** Waits until every tab's store shows exactly the reset counter + count; false when it stalled or ran out of time. */
export const waitForStores = async (pages: ReadonlyArray<Page>, count: number, options: WaitOptions): Promise<boolean> => {
  const deadline = Date.now() + options.maxMs
  let last = ''
  let movedAt = Date.now()
  while (Date.now() - movedAt < options.stallMs && Date.now() < deadline) {
    const progress = await tabProgress(pages)
    if (allExact(progress, count, options.commits)) return true
    const now = progress.map((x) => `${x.counter}/${x.committed}`).join(',')
    if (now !== last) {
      last = now
      movedAt = Date.now()
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return false
}

/** Waits until no tab's store changed for quietMs (a slow core may still be draining the previous run). */
export const settle = async (pages: ReadonlyArray<Page>, quietMs: number, maxMs: number): Promise<void> => {
  const deadline = Date.now() + maxMs
  let last = ''
  let changedAt = Date.now()
  while (Date.now() < deadline && Date.now() - changedAt < quietMs) {
    const now = (await tabProgress(pages)).map((x) => `${x.counter}/${x.committed}`).join(',')
    if (now !== last) {
      last = now
      changedAt = Date.now()
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

export const dumpTabs = (pages: ReadonlyArray<Page>): Promise<TabDump[]> =>
  Promise.all(pages.map((p) => p.evaluate(() => window.__bench!.dump())))

export const workerArrivals = async (page: Page, count: number): Promise<Float64Array> => {
  const pairs = await page.evaluate(() => window.__bench!.workerArrivals())
  const at = new Float64Array(count + 1)
  for (const [id, t] of pairs) if (id <= count && at[id] === 0) at[id] = t
  return at
}

export const control = (page: Page, name: string, ...args: unknown[]): Promise<unknown> =>
  page.evaluate(([n, a]) => window.__bench!.control(n as string, ...(a as unknown[])), [name, args] as const)
