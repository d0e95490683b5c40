// The tab's lifetime lock: held until the tab closes (or `release` is called), so the core can tell it is gone.
import { tabLockName } from '../../worker/protocol/tab-lock.ts'

export const holdTabLock = (tabId: string): Promise<() => void> =>
  new Promise((granted) => {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks
    if (locks === undefined) return granted(() => {})
    locks
      .request(tabLockName(tabId), () => new Promise<void>((release) => granted(() => release())))
      .catch(() => granted(() => {}))
  })
