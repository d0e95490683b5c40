// Part 8: JS heap of each tab of the built app (home screen, logged in) and of the core's SharedWorker, with 1 and
// 16 tabs, read over CDP after a forced garbage collection.
import type { Browser, CDPSession, Page } from 'playwright-core'
import { phoneContext } from '../lib/browser.ts'
import type { BenchContext } from '../lib/context.ts'
import { DEVICE_ITEM, logInThroughScreen } from '../lib/app-session.ts'
import { serveProductBuild } from '../lib/product-build.ts'
import type { PartOutput } from '../lib/result.ts'
import { round, summarize } from '../lib/stats.ts'

const mb = (n: number): number => round(n / 1024 / 1024, 2)

const tabHeap = async (cdp: CDPSession): Promise<number> => {
  await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined)
  return (await cdp.send('Runtime.getHeapUsage')).usedSize
}

/** The SharedWorker is not a page: reach it through the browser's target list and a flat-less CDP child session. */
const workerHeaps = async (browser: Browser): Promise<number[]> => {
  const cdp = await browser.newBrowserCDPSession()
  try {
    const { targetInfos } = await cdp.send('Target.getTargets')
    const workers = targetInfos.filter((t) => t.type === 'shared_worker' && t.url.includes('/assets/'))
    const heaps: number[] = []
    for (const w of workers) {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: w.targetId, flatten: false })
      const ask = (id: number, method: string) => new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker did not answer ${method}`)), 10_000)
        const onMessage = (e: { sessionId?: string; message: string }) => {
          const reply = JSON.parse(e.message) as { id?: number; result?: Record<string, unknown> }
          if (e.sessionId !== sessionId || reply.id !== id) return
          clearTimeout(timer)
          cdp.off('Target.receivedMessageFromTarget', onMessage)
          resolve(reply.result ?? {})
        }
        cdp.on('Target.receivedMessageFromTarget', onMessage)
        void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) })
      })
      await ask(1, 'HeapProfiler.collectGarbage').catch(() => undefined)
      heaps.push(Number((await ask(2, 'Runtime.getHeapUsage')).usedSize))
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined)
    }
    return heaps
  } finally {
    await cdp.detach().catch(() => undefined)
  }
}

export const runMemory = async (ctx: BenchContext): Promise<PartOutput> => {
  if (!ctx.server) throw new Error(`reference server not running: ${ctx.serverError}`)
  const app = await serveProductBuild(ctx.server.url)
  const context = await ctx.browser.newContext(phoneContext)
  const rows: Array<Array<string | number>> = []
  const data: unknown[] = []
  try {
    const first = await context.newPage()
    await logInThroughScreen(first, app.appUrl)
    const pages: Page[] = [first]
    for (const tabs of [1, 16]) {
      ctx.log(`memory: ${tabs} app tabs`)
      while (pages.length < tabs) {
        const more = await Promise.all(Array.from({ length: Math.min(4, tabs - pages.length) }, async () => {
          const p = await context.newPage()
          await p.goto(app.appUrl, { waitUntil: 'load', timeout: 60_000 })
          await p.locator(DEVICE_ITEM).first().waitFor({ timeout: 60_000 })
          return p
        }))
        pages.push(...more)
      }
      await new Promise((r) => setTimeout(r, 1_000))
      const heaps: number[] = []
      for (const p of pages) {
        const cdp = await context.newCDPSession(p)
        heaps.push(await tabHeap(cdp))
        await cdp.detach()
      }
      const worker = await workerHeaps(ctx.browser).catch((e: unknown) => e instanceof Error ? e.message : String(e))
      const s = summarize(heaps)
      rows.push([tabs, mb(s.p50), mb(s.max), mb(heaps.reduce((a, b) => a + b, 0)),
        Array.isArray(worker) ? worker.map(mb).join(', ') || 'no worker target' : `n/a: ${worker}`])
      data.push({ tabs, heaps, worker })
    }
    return {
      tables: [{
        title: 'JS heap used (MB) of the built app on the home screen, after a forced GC (CDP Runtime.getHeapUsage)',
        columns: ['tabs', 'per tab median', 'per tab max', 'all tabs', 'core SharedWorker'],
        rows,
      }],
      product: 'real',
      notes: ['Tabs are pages of one browser context (one SharedWorker); the worker is reached as a shared_worker CDP target.'],
      data,
    }
  } finally {
    await context.close()
    await app.close()
  }
}
