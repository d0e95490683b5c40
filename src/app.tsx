// The tab's app, loaded by the entry (main.tsx) once React has evaluated: the router, the store, the tab's effects and
// the first render, from the core the entry connected to.
import './boot/antd-react19.ts'
import { ConfigProvider } from 'antd-mobile'
import zhCNLocale from 'antd-mobile/es/locales/zh-CN'
import { createHashHistory, RouterProvider } from '@tanstack/react-router'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import type { CoreClient } from './core/types.ts'
import { CoreProvider } from './core-context.tsx'
import { forwardOnline } from './core/forward-online.ts'
import { nextTask } from './boot/next-task.ts'
import { createTabEffects } from './boot/tab-effects.tsx'
import { ASYNC_SCREEN_DELAY_MS } from '../worker/protocol/constants.ts'
import { createAppRouter, type AppRouter } from './router/router.tsx'
import { appStore } from './store/index.ts'
import { statusBarHeightFrom } from './ui/nav-height.ts'
import { RouterNotReady } from './ui/RouterNotReady.tsx'

const isVisible = () => document.visibilityState === 'visible'

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
  forwardOnline(core.api)
  void core.api.getLocal('statusBarHeight').then((stored) =>
    appStore.getState().setTab({ statusBarHeight: statusBarHeightFrom(stored) }),
  )
}

/** The entry starts the first screen's chunk loading with it (index.html already did for the login and the home). */
export { preloadScreen } from './router/router.tsx'

/** Shows the app on `core`: the store from its snapshot, the router, and the first render once its route resolved. */
export const startApp = async (core: CoreClient): Promise<void> => {
  appStore.getState().setShared(core.state())
  await nextTask()
  // the hash history (it writes the entry's history state) and the router (it builds the route tree) are two tasks
  const history = createHashHistory()
  await nextTask()
  const router = createAppRouter(history)
  follow(core, router)
  await nextTask()
  // The first route resolves (guard, screen chunk) before the first render, so the first render already has the
  // screen: a deferred render React slices, not the router's synchronous store update after it mounts. A screen still
  // loading after the loading view's delay renders (and shows that view) while it goes on loading.
  const loaded = Promise.race([router.load(), new Promise((resolve) => setTimeout(resolve, ASYNC_SCREEN_DELAY_MS))])
  // The root (React's event listeners on the container) is made while the route loads, and the render starts in a
  // task after the one in which the screen's chunk evaluated: three tasks instead of one (issue 24, blocking time)
  await nextTask()
  const root = createRoot(document.getElementById('app')!)
  await loaded
  await nextTask()
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
}
