// The interface kit's defaults (§9) in a real browser: the one load-more foot and its three texts (no idle
// 正在加载...), back-to-top past 400 px in 100 ms, pop-ups at z-index 10075 under dialogs and toasts, the home ads
// turning every 3000 ms (fake timers).
import '../../src/boot/antd-react19.ts'
import '../../src/ui/app.css'
import {
  createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider,
} from '@tanstack/react-router'
import { Dialog, Popup, Toast } from 'antd-mobile'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { reactRoot } from './react-root.ts'
import type { CoreClient } from '../../src/core/types.ts'
import { CoreProvider } from '../../src/core-context.tsx'
import AdPopup from '../../src/features/devices/AdPopup.tsx'
import type { PopUpAd } from '../../src/features/devices/home-pieces.tsx'
import { zhCN } from '../../src/i18n/zh-CN.ts'
import { BackToTop, scrollToTop } from '../../src/ui/kit/BackToTop.tsx'
import { BACK_TO_TOP, POPUP_Z_INDEX, SWIPER_INTERVAL_MS, TEXTAREA_MAX_LENGTH } from '../../src/ui/kit/defaults.ts'
import { LoadMoreFooter } from '../../src/ui/kit/LoadMoreFooter.tsx'

const dom = reactRoot()
afterEach(() => window.scrollTo(0, 0))

const render = (node: React.ReactNode) => act(async () => dom.root.render(node))
const foot = () => dom.host.querySelector('[data-testid="foot"]') as HTMLElement

it('the defaults are the spec values', () => {
  expect(POPUP_Z_INDEX).toBe(10075)
  expect(BACK_TO_TOP).toEqual({ showAfterPx: 400, durationMs: 100 })
  expect(SWIPER_INTERVAL_MS).toBe(3000)
  expect(TEXTAREA_MAX_LENGTH).toBe(140)
  expect(zhCN.loadMore).toEqual({ more: '加载更多', loading: '正在加载...', noMore: '没有更多了' })
})

describe('load-more foot', () => {
  const noop = () => new Promise<void>(() => undefined)

  it('offers 加载更多 while idle (never an idle 正在加载...), 正在加载... only while loading, 没有更多了 at the end', async () => {
    // a tall spacer keeps the foot out of view, so it does not load by itself
    const page = (props: Partial<Parameters<typeof LoadMoreFooter>[0]>) => (
      <><div style={{ height: 3000 }} /><LoadMoreFooter hasMore loading={false} onLoadMore={noop} testId="foot" {...props} /></>
    )
    await render(page({}))
    expect(foot().textContent).toBe('加载更多')
    expect(foot().querySelector('button')).not.toBeNull()
    await render(page({ loading: true }))
    expect(foot().textContent).toBe('正在加载...')
    await render(page({ hasMore: false }))
    expect(foot().textContent).toBe('没有更多了')
    await render(page({ hasMore: false, failed: true }))
    expect(foot().textContent).toBe('加载更多')
  })

  it('a tap on 加载更多 loads the next page', async () => {
    const onLoadMore = vi.fn(() => Promise.resolve())
    await render(<><div style={{ height: 3000 }} /><LoadMoreFooter hasMore loading={false} onLoadMore={onLoadMore} testId="foot" /></>)
    await act(async () => foot().querySelector('button')!.click())
    expect(onLoadMore).toHaveBeenCalled()
  })
})

describe('back to top', () => {
  it('appears only past 400 px and takes the page to the top in 100 ms', async () => {
    await render(<><div style={{ height: 5000 }} /><BackToTop /></>)
    const button = () => dom.host.querySelector('[data-testid="back-to-top"]') as HTMLButtonElement | null
    await act(async () => {
      window.scrollTo(0, 400)
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
    })
    expect(button()).toBeNull()
    await act(async () => {
      window.scrollTo(0, 1200)
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
    })
    expect(button()?.getAttribute('aria-label')).toBe('回到顶部')
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'performance'] })
    scrollToTop()
    vi.advanceTimersByTime(50)
    expect(window.scrollY).toBeGreaterThan(0)
    expect(window.scrollY).toBeLessThan(1200)
    // frames come every 16 ms: the one at or after 100 ms ends the scroll
    vi.advanceTimersByTime(70)
    expect(window.scrollY).toBe(0)
  })
})

describe('z-index order', () => {
  const zOf = (selector: string) => {
    const element = document.querySelector(selector)
    if (element === null) throw new Error(`${selector} is not on the page: ${[...document.body.querySelectorAll('[class^="adm-"]')].map((e) => e.className).join(' | ')}`)
    return Number(getComputedStyle(element).zIndex)
  }

  it('pop-ups sit at 10075, dialogs above them, toasts above dialogs', async () => {
    await render(<Popup visible><p>弹出层</p></Popup>)
    const dialog = Dialog.show({ content: '对话框', closeOnMaskClick: true })
    await act(async () => void Toast.show({ content: '提示', duration: 0 }))
    await act(() => new Promise((r) => setTimeout(r, 50)))
    const popup = zOf('.adm-popup')
    const popupBody = zOf('.adm-popup-body')
    const dialogZ = zOf('.adm-dialog')
    const toast = zOf('.adm-toast-mask')
    expect(popup).toBe(POPUP_Z_INDEX)
    expect(dialogZ).toBeGreaterThan(popupBody)
    expect(toast).toBeGreaterThan(dialogZ)
    dialog.close()
    Toast.clear()
  })
})

describe('home ads', () => {
  const ads: ReadonlyArray<PopUpAd> = [1, 2, 3].map((id) => ({
    id, adName: `广告${id}`, imageUrl: `data:image/gif;base64,R0lGODlhAQABAAAAACw=`, clickUrl: '', phoneType: '', androidVersion: '',
  }))
  const core = { api: { call: () => Promise.resolve({ ok: true, data: null }) } } as unknown as CoreClient

  const renderAds = async (list: ReadonlyArray<PopUpAd>) => {
    const rootRoute = createRootRoute({ component: Outlet })
    const tree = rootRoute.addChildren([createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <AdPopup ads={list} /> })])
    const router = createRouter({ routeTree: tree, history: createMemoryHistory({ initialEntries: ['/'] }) })
    await render(<CoreProvider core={core}><RouterProvider router={router} /></CoreProvider>)
    await act(() => vi.advanceTimersByTimeAsync(0))
  }
  const index = () => document.querySelector('[data-testid="ad-popup"]')?.getAttribute('data-index')
  /** lets the slide animation (real animation frames, not faked) settle: the next turn starts from where it ended. */
  const settleSlide = () => act(() => new Promise<void>((resolve) => {
    const start = performance.now()
    const frame = () => (performance.now() - start > 600 ? resolve() : requestAnimationFrame(frame))
    requestAnimationFrame(frame)
  }))

  it('several ads turn by themselves every 3000 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    await renderAds(ads)
    expect(document.querySelector('[data-testid="ad-swiper"]')).not.toBeNull()
    expect(index()).toBe('0')
    await act(() => vi.advanceTimersByTimeAsync(SWIPER_INTERVAL_MS - 100))
    expect(index()).toBe('0')
    await act(() => vi.advanceTimersByTimeAsync(200))
    expect(index()).toBe('1')
    await settleSlide()
    await act(() => vi.advanceTimersByTimeAsync(SWIPER_INTERVAL_MS - 300))
    expect(index()).toBe('1')
    await act(() => vi.advanceTimersByTimeAsync(200))
    expect(index()).toBe('2')
  })

  it('one ad is shown without a swiper', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    await renderAds(ads.slice(0, 1))
    expect(document.querySelector('[data-testid="ad-popup"]')).not.toBeNull()
    expect(document.querySelector('[data-testid="ad-swiper"]')).toBeNull()
  })
})
