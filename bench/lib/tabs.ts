// Opens bench tabs (bench/pages/dispatch.html) in one browser context and drives them through window.__bench.
import type { BrowserContext, Page } from 'playwright-core'
import type { TabDump } from '../pages/recorder.ts'

export type DeliveryPath = 'product' | 'socket' | 'comlink' | 'port'

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

/** Waits until every tab's store (and React, with commits) holds message `count`, or until nothing moved for stallMs. */
export const waitForTabs = async (pages: ReadonlyArray<Page>, count: number, stallMs: number, commits: boolean): Promise<boolean> => {
  let last = -1
  let movedAt = Date.now()
  while (Date.now() - movedAt < stallMs) {
    const progress = await Promise.all(pages.map((p) => p.evaluate(() => window.__bench!.progress())))
    if (progress.every((x) => x.storeMax >= count && (!commits || x.commitMax >= count))) return true
    const total = progress.reduce((a, x) => a + x.storeMax + x.commitMax + x.events, 0)
    if (total !== last) {
      last = total
      movedAt = Date.now()
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return false
}

/** Waits until no tab has received an event for quietMs (a slow core may still be draining the previous run). */
export const settle = async (pages: ReadonlyArray<Page>, quietMs: number, maxMs: number): Promise<void> => {
  const deadline = Date.now() + maxMs
  let last = -1
  let changedAt = Date.now()
  while (Date.now() < deadline && Date.now() - changedAt < quietMs) {
    const progress = await Promise.all(pages.map((p) => p.evaluate(() => window.__bench!.progress())))
    const total = progress.reduce((a, x) => a + x.events + x.storeMax + x.commitMax, 0)
    if (total !== last) {
      last = total
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
