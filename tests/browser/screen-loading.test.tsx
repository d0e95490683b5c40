// Screen loading and the router's own rules in a real browser: the loading view appears only after the 200 ms
// delay, a screen still loading at 60 s shows the error view and a retry then ends as a chunk-load error at 120 s
// (fake timers), the router-not-ready view, and the index URL and unknown routes landing on `#/`.
import {
  createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider,
} from '@tanstack/react-router'
import { act } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { reactRoot } from './react-root.ts'
import { zhCN } from '../../src/i18n/zh-CN.ts'
import { lazyScreen, type ScreenModule } from '../../src/router/lazy-screen.ts'
import { createAppRouter, screenLoadOptions } from '../../src/router/router.tsx'
import { RouterNotReady } from '../../src/ui/RouterNotReady.tsx'
import type { CoreClient } from '../../src/core/types.ts'
import { CoreProvider } from '../../src/core-context.tsx'
import { topSafeArea, useScreenMetrics } from '../../src/features/session/screen-metrics.ts'
import { appStore } from '../../src/store/index.ts'

const dom = reactRoot()

/** A router with the app's loading options and one lazy screen whose chunk the test settles. */
const slowScreenRouter = () => {
  const imports: Array<{ resolve: (m: ScreenModule) => void }> = []
  const Screen = lazyScreen(() => new Promise<ScreenModule>((resolve) => void imports.push({ resolve })))
  const rootRoute = createRootRoute({ component: Outlet })
  const routeTree = rootRoute.addChildren([
    createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <p>首页</p> }),
    createRoute({ getParentRoute: () => rootRoute, path: '/slow', component: Screen }),
  ])
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: ['/'] }), ...screenLoadOptions })
  return { router, imports }
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('screen loading (fake timers)', () => {
  it('shows the loading view only after 200 ms, then the screen when its chunk arrives', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { router, imports } = slowScreenRouter()
    await act(async () => dom.root.render(<RouterProvider router={router} />))
    await advance(0)
    expect(dom.host.textContent).toContain('首页')
    await act(async () => void router.navigate({ to: '/slow' as never }) /* this test's own router, not the app's registered tree */)
    await advance(199)
    expect(dom.host.textContent).not.toContain(zhCN.screen.loading)
    await advance(1)
    expect(dom.host.textContent).toContain(zhCN.screen.loading)
    imports[0]!.resolve({ default: () => <p>慢页面</p> })
    await advance(0)
    await advance(0)
    expect(dom.host.textContent).toContain('慢页面')
  })

  it('at 60 s shows the load-timeout view; its retry ends as a chunk-load timeout at 120 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { router, imports } = slowScreenRouter()
    await act(async () => dom.root.render(<RouterProvider router={router} />))
    await act(async () => void router.navigate({ to: '/slow' as never }) /* this test's own router, not the app's registered tree */)
    await advance(59_999)
    expect(dom.host.textContent).not.toContain(zhCN.screen.loadTimeout)
    await advance(1)
    await advance(0)
    expect(dom.host.querySelector('[data-testid="screen-error"]')?.textContent).toContain(zhCN.screen.loadTimeout)
    await act(async () => (dom.host.querySelector('[data-testid="screen-error"] button') as HTMLButtonElement).click())
    await advance(59_999)
    expect(dom.host.textContent).not.toContain(zhCN.screen.chunkTimeout)
    await advance(1)
    await advance(0)
    expect(dom.host.querySelector('[data-testid="screen-error"]')?.textContent).toContain(zhCN.screen.chunkTimeout)
    expect(imports).toHaveLength(1)
  })
})

describe('router not ready', () => {
  it('says in Chinese that the H5 router is not ready, with a retry', async () => {
    const Broken = (): never => {
      throw new Error('router failed to start')
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await act(async () => dom.root.render(<RouterNotReady><Broken /></RouterNotReady>))
    quiet.mockRestore()
    const view = dom.host.querySelector('[data-testid="router-not-ready"]')
    expect(view?.textContent).toContain('H5路由尚未就绪')
    expect(view?.querySelector('button')?.textContent).toContain(zhCN.app.retry)
  })
})

describe('landing routes', () => {
  const landing = async (entry: string) => {
    const router = createAppRouter(createMemoryHistory({ initialEntries: [entry] }))
    await router.load()
    return router.state.location
  }

  it('the index page lands on the web root keeping its query', async () => {
    const at = await landing('/pages/index/index?channelCode=A1&x=2')
    expect(at.pathname).toBe('/')
    expect(at.search).toEqual({ channelCode: 'A1', x: '2' })
  })

  it('an unknown route lands on the web root, for a visitor too', async () => {
    expect((await landing('/no/such/page')).pathname).toBe('/')
    expect((await landing('/package/notAScreen/notAScreen?a=1')).pathname).toBe('/')
  })

  it('a visitor sent away from a protected route lands on `/`, a public one stays', async () => {
    expect((await landing('/package/setUp/setUp')).pathname).toBe('/')
    expect((await landing('/pages/login/login?invitationUserName=ab12')).pathname).toBe('/pages/login/login')
  })
})

describe('screen metrics at boot', () => {
  it('writes statusBarHeight (the top safe area) through the core, and sizes the bar by it; no window height (nothing reads it)', async () => {
    const written: Record<string, string | null> = {}
    const core = { api: { setLocal: (key: string, value: string | null) => void (written[key] = value) } } as unknown as CoreClient
    const Probe = () => {
      useScreenMetrics()
      return null
    }
    appStore.getState().setTab({ statusBarHeight: 99 })
    await act(async () => dom.root.render(<CoreProvider core={core}><Probe /></CoreProvider>))
    expect(written).toEqual({ statusBarHeight: String(topSafeArea()) })
    expect(topSafeArea()).toBe(0)
    expect(appStore.getState().tab.statusBarHeight).toBe(0)
  })
})
