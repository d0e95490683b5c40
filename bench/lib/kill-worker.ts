// Kills the core's worker from outside, as the OS does (TESTING.md, issue 21): the DevTools protocol closes the
// SharedWorker's target (no code of it runs; the browser releases its locks). A dedicated Worker's target cannot be
// closed (Chromium: "Specified target doesn't support closing"; it dies with its page), so it is frozen instead: the
// debugger pauses it, and it answers nothing from then on. Only workers of `page`'s browser context whose name is the
// product's core or contains `name`; returns how many it hit.
import type { Page } from 'playwright-core'
import { CORE_WORKER_NAME } from '../../worker/protocol/constants.ts'

interface TargetInfo { readonly targetId: string; readonly type: string; readonly title: string; readonly browserContextId?: string }

export const killWorkers = async (page: Page, name: string): Promise<number> => {
  const own = await page.context().newCDPSession(page)
  const { targetInfo } = await own.send('Target.getTargetInfo') as { targetInfo: TargetInfo }
  await own.detach().catch(() => undefined)
  const cdp = await page.context().browser()!.newBrowserCDPSession()
  try {
    const { targetInfos } = await cdp.send('Target.getTargets') as { targetInfos: ReadonlyArray<TargetInfo> }
    const ours = targetInfos.filter((t) => (t.type === 'shared_worker' || t.type === 'worker')
      && t.browserContextId === targetInfo.browserContextId && (t.title === CORE_WORKER_NAME || t.title.includes(name)))
    for (const t of ours) {
      if (t.type === 'shared_worker') {
        await cdp.send('Target.closeTarget', { targetId: t.targetId })
        continue
      }
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false })
      for (const [id, method] of [[1, 'Debugger.enable'], [2, 'Debugger.pause']] as const) {
        await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params: {} }) })
      }
    }
    if (ours.length === 0) {
      throw new Error(`no worker named like ${name} among ${JSON.stringify(targetInfos.map((t) => [t.type, t.title.slice(0, 120)]))}`)
    }
    return ours.length
  } finally {
    await cdp.detach().catch(() => undefined)
  }
}
