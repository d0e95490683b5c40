// Opens tabs on a delivery path. On the product paths the first tab logs the demo user in through the core, and every
// tab waits until its core's push socket is open (one shared socket, or one per tab with the dedicated fallback).
import type { BrowserContext, Page } from 'playwright-core'
import type { BenchContext } from './context.ts'
import { BENCH_PATH_PARAM } from './frames.ts'
import { control, isProduct, openTab, type DeliveryPath } from './tabs.ts'

export const waitFor = async (what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await probe()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const pushOpen = (page: Page): Promise<void> =>
  waitFor('the core push socket to open', async () => (await control(page, 'pushStatus')) === 'open', 30_000)

export const pathUrl = (ctx: BenchContext, path: DeliveryPath, query: Record<string, string | number> = {}): string =>
  ctx.pages.pageUrl('dispatch.html', {
    mode: isProduct(path) ? 'product' : path,
    ws: `${ctx.push.url}?${BENCH_PATH_PARAM}=${path}`,
    worker: `bench-${path}`,
    ...(path === 'dedicated' ? { dedicated: 1 } : {}),
    ...query,
  })

export const openPathTabs = async (
  ctx: BenchContext,
  context: BrowserContext,
  path: DeliveryPath,
  tabs: number,
  /** more tabs for a core that is already logged in and connected in this context. */
  joining = false,
  query: Record<string, string | number> = {},
): Promise<Page[]> => {
  if (isProduct(path) && (!ctx.productCore || !ctx.server)) {
    throw new Error(ctx.server ? 'product core not present yet (src/core/connect.ts or worker/main.ts missing)' : `reference server not running: ${ctx.serverError}`)
  }
  const url = pathUrl(ctx, path, query)
  if (tabs <= 0) return []
  const first = await openTab(context, url)
  if (isProduct(path) && !joining) {
    if (!(await control(first, 'loggedIn'))) {
      const result = (await control(first, 'login')) as { ok: boolean; msg?: string }
      if (!result.ok) throw new Error(`product login failed: ${result.msg}`)
    }
    await pushOpen(first)
  }
  const pages = [first]
  // a few at a time: 16 tabs booting at once on 2 cores only measures the boot
  for (let i = 1; i < tabs; i += 4) {
    pages.push(...(await Promise.all(Array.from({ length: Math.min(4, tabs - i) }, () => openTab(context, url)))))
  }
  if (isProduct(path)) await Promise.all(pages.map(pushOpen))
  return pages
}
