// One browser context per delivery path whose tabs grow through the given counts (1 -> 4 -> 16), so each measurement
// at N tabs reuses the tabs (and the warmed worker) of the smaller counts instead of booting them again.
import type { Page } from 'playwright-core'
import type { BenchContext } from './context.ts'
import { openPathTabs } from './product-tabs.ts'
import type { DeliveryPath } from './tabs.ts'

/**
 * A run that hangs is cut off and recorded (its pages are closed under it, so what awaits them fails) while the
 * others still run; clear the returned timer when the run ends.
 */
export const cutOff = (ctx: BenchContext, pages: ReadonlyArray<Page>): ReturnType<typeof setTimeout> =>
  setTimeout(() => void Promise.all(pages.map((p) => p.close())), ctx.quick ? 90_000 : 600_000)

/**
 * A run not started because the time budget ran out: not an error of the product (the parts leave it out of their
 * errors), but the bench fails on it all the same (withPathTabs reports it through ctx.skipped; bench/lib/result.ts).
 */
export class Skipped extends Error {}

export const withPathTabs = async (
  ctx: BenchContext,
  path: DeliveryPath,
  tabCounts: ReadonlyArray<number>,
  measure: (pages: Page[], tabs: number) => Promise<void>,
  onOpenFailed: (tabs: number, error: unknown) => void,
  /** tab counts not started by then are reported through onOpenFailed as skipped. */
  deadline = Infinity,
  query: Record<string, string | number> = {},
): Promise<void> => {
  const context = await ctx.browser.newContext()
  try {
    let pages: Page[] = []
    for (const tabs of tabCounts) {
      if (Date.now() > deadline) {
        ctx.skipped(`${path} x${tabs}: not started, the time budget ran out`)
        onOpenFailed(tabs, new Skipped('skipped: the time budget ran out'))
        continue
      }
      try {
        pages = pages.length === 0 ? await openPathTabs(ctx, context, path, tabs, false, query) : [...pages, ...(await openPathTabs(ctx, context, path, tabs - pages.length, true, query))]
      } catch (e) {
        for (const rest of tabCounts.filter((n) => n >= tabs)) onOpenFailed(rest, e)
        return
      }
      await measure(pages, tabs)
    }
  } finally {
    await context.close()
  }
}
