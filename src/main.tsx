// Boot of a tab: entry URL rules, connect to the core, paint from its snapshot, then follow its events and
// report this tab's route and visibility back.
import './boot/antd-react19.ts'
import './ui/app.css'
import { ConfigProvider } from 'antd-mobile'
import zhCNLocale from 'antd-mobile/es/locales/zh-CN'
import { RouterProvider } from '@tanstack/react-router'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { connectCore } from './core/connect.ts'
import type { CoreClient } from './core/types.ts'
import { CoreProvider } from './core-context.tsx'
import { entryRedirect, resolveChannelCode, routeFromHash } from './boot/entry-url.ts'
import { createTabEffects } from './boot/tab-effects.tsx'
import { zhCN } from './i18n/zh-CN.ts'
import { createAppRouter, preloadScreen, type AppRouter } from './router/router.tsx'
import { appStore } from './store/index.ts'
import { statusBarHeightFrom } from './ui/nav-height.ts'
import { RouterNotReady } from './ui/RouterNotReady.tsx'
import { installShell } from './ui/shell.ts'

// boot:* marks: where a reload's time goes (bench/parts/cold-start.ts reads them; DevTools shows them)
performance.mark('boot:entry')
installShell()
const redirectTo = entryRedirect(window.location)
if (redirectTo !== null) window.history.replaceState(null, '', redirectTo)

const channelCode = resolveChannelCode(window.location, sessionStorage)
const isVisible = () => document.visibilityState === 'visible'
const root = createRoot(document.getElementById('app')!)

const currentRoute = (router: AppRouter) => {
  const { tab } = appStore.getState()
  return {
    path: router.state.location.pathname,
    search: router.state.location.search as Record<string, string>,
    viewerCardId: tab.viewerCardId,
    oneClickRepair: tab.oneClickRepair,
  }
}

const follow = (core: CoreClient, router: AppRouter): void => {
  const effects = createTabEffects(router, core.api)
  core.onState((state, replaced) => {
    appStore.getState().setShared(state)
    effects.onState(state, !replaced)
  })
  core.onEffect(effects.onEffect)
  effects.onState(core.state(), false)

  const reportRoute = () => void core.api.reportRoute(currentRoute(router))
  router.subscribe('onResolved', reportRoute)
  appStore.subscribe((state, prev) => {
    if (state.tab.viewerCardId !== prev.tab.viewerCardId || state.tab.oneClickRepair !== prev.tab.oneClickRepair) reportRoute()
    // a login, logout or bind changes which routes this tab may show
    if (state.session !== prev.session) void router.invalidate()
  })
  document.addEventListener('visibilitychange', () => void core.api.reportVisibility(isVisible()))
  void core.api.getLocal('statusBarHeight').then((stored) =>
    appStore.getState().setTab({ statusBarHeight: statusBarHeightFrom(stored) }),
  )
}

const boot = async (): Promise<void> => {
  const start = routeFromHash(window.location.hash)
  preloadScreen(start.path)
  const core = await connectCore({
    channelCode,
    route: { path: start.path, search: start.search, viewerCardId: null, oneClickRepair: false },
    visible: isVisible(),
  })
  performance.mark('boot:core-ready')
  appStore.getState().setShared(core.state())
  const router = createAppRouter()
  follow(core, router)
  startTransition(() => root.render(
    <StrictMode>
      <ConfigProvider locale={zhCNLocale}>
        <CoreProvider core={core}>
          <RouterNotReady>
            <RouterProvider router={router} />
          </RouterNotReady>
        </CoreProvider>
      </ConfigProvider>
    </StrictMode>,
  ))
  performance.mark('boot:rendered')
}

boot().catch(() => {
  root.render(
    <div className="boot" data-testid="boot-failed">
      <div className="center-state">
        <p>{zhCN.app.bootFailed}</p>
        <button type="button" onClick={() => window.location.reload()}>
          {zhCN.app.retry}
        </button>
      </div>
    </div>,
  )
})
