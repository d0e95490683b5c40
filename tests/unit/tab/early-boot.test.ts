// index.html's first script (src/boot/early-core.ts), run as the page runs it: serialised, with the page's globals.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { earlyBootScript, type EarlyBoot } from '../../../src/boot/early-core.ts'
import { CHANNEL_CODE_SESSION_KEY } from '../../../src/boot/entry-url.ts'

const runInPage = (): EarlyBoot => {
  new Function(earlyBootScript('/assets/main.js'))()
  return (globalThis as { __earlyBoot?: EarlyBoot }).__earlyBoot!
}

afterEach(() => {
  vi.unstubAllGlobals()
  delete (globalThis as { __earlyBoot?: EarlyBoot }).__earlyBoot
})

describe('index.html\'s first script', () => {
  it('starts the core\'s worker, then makes the page\'s first sessionStorage read (the kept channelCode)', () => {
    const order: string[] = []
    vi.stubGlobal('SharedWorker', function SharedWorker(this: object, url: string) { order.push(`worker ${url}`) })
    vi.stubGlobal('sessionStorage', { getItem: (key: string) => { order.push(`read ${key}`); return null } })
    const early = runInPage()
    expect(order).toEqual(['worker /assets/main.js', `read ${CHANNEL_CODE_SESSION_KEY}`])
    expect(early.worker).not.toBeNull()
    expect(early.tab?.tabId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('reads the storage without SharedWorker too, and a storage that throws (disabled) does not stop the boot', () => {
    const getItem = vi.fn(() => { throw new DOMException('denied', 'SecurityError') })
    vi.stubGlobal('SharedWorker', undefined)
    vi.stubGlobal('sessionStorage', { getItem })
    const early = runInPage()
    expect(getItem).toHaveBeenCalledWith(CHANNEL_CODE_SESSION_KEY)
    expect(early).toMatchObject({ worker: null, failed: false })
  })
})
