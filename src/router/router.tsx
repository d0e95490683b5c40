// The route tree (every path of paths.ts, `/` as home, unknown paths to `/`), hash history, lazy screens,
// plain-string search params, and the guard in the root route's beforeLoad. The home lives at `#/`: the index page's
// own path lands there keeping its query (§2), so every way home (a guard, a navigation to HOME) shows `#/`.
import {
  createHashHistory, createRootRoute, createRoute, createRouter, Outlet, redirect, useRouterState, type RouterHistory,
} from '@tanstack/react-router'
import { useEffect } from 'react'
import { ASYNC_SCREEN_DELAY_MS } from '../../worker/protocol/constants.ts'
import { Analytics } from '../features/analytics/Analytics.tsx'
import { useScreenMetrics } from '../features/session/screen-metrics.ts'
import { appStore } from '../store/index.ts'
import { ScreenError } from '../ui/ScreenError.tsx'
import { ScreenLoading } from '../ui/ScreenLoading.tsx'
import { applyTitleWithRetry } from '../ui/title.ts'
import { guard } from './guard.ts'
import { noteIntended } from './intended.ts'
import { lazyScreen, type ScreenModule } from './lazy-screen.ts'
import { canonicalPath, HOME, ROUTE_PATHS, screenFile } from './paths.ts'
import { parseSearch, stringifySearch } from './search.ts'

const KNOWN_PATHS: ReadonlySet<string> = new Set(ROUTE_PATHS)

const screenModules = import.meta.glob<ScreenModule>(['../routes/**/*.tsx', '!../routes/**/-*/**'])

const screenFor = (path: (typeof ROUTE_PATHS)[number]) => {
  const importer = screenModules[`../routes/${screenFile(path)}`]
  if (!importer) throw new Error(`route ${path} has no screen file src/routes/${screenFile(path)}`)
  return lazyScreen(importer)
}

/** Sets document.title by the title rule on every route change; reports analytics; writes the screen metrics. */
const RootLayout = () => {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useScreenMetrics()
  useEffect(
    () =>
      applyTitleWithRetry({
        getSystemName: () => appStore.getState().systemName,
        apply: (title) => {
          document.title = title
        },
        setTimer: (run, ms) => setTimeout(run, ms),
        clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
      }),
    [pathname],
  )
  return (
    <>
      <Outlet />
      <Analytics />
    </>
  )
}

const rootRoute = createRootRoute({
  component: RootLayout,
  beforeLoad: ({ location }) => {
    const session = appStore.getState().session
    const target = guard(location.pathname, session, navigator.userAgent)
    if (target === null) return
    // a visitor turned away from a protected screen gets there after signing in (src/router/intended.ts)
    if (!session.loggedIn && target === HOME && KNOWN_PATHS.has(location.pathname)) noteIntended(location.href)
    throw redirect({ to: target === HOME ? '/' : target, replace: true })
  },
})

const screens = new Map(ROUTE_PATHS.map((path) => [path, screenFor(path)]))

/** Starts loading a screen's chunk (the boot does it for the entry route while it connects to the core). */
export const preloadScreen = (path: string): void => {
  const screen = screens.get(canonicalPath(path) as (typeof ROUTE_PATHS)[number]) as { preload?: () => unknown } | undefined
  void screen?.preload?.()
}

const routeTree = rootRoute.addChildren([
  createRoute({ getParentRoute: () => rootRoute, path: '/', component: screens.get(HOME) }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: HOME,
    beforeLoad: ({ location }) => {
      throw redirect({ to: '/', search: location.search as Record<string, string>, replace: true })
    },
  }),
  ...ROUTE_PATHS.filter((path) => path !== HOME).map((path) =>
    createRoute({ getParentRoute: () => rootRoute, path, component: screens.get(path) })),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '$',
    beforeLoad: () => {
      throw redirect({ to: '/', replace: true })
    },
  }),
])

/** How a screen that is still loading or failed to load shows (§8, §9: the loading view after 200 ms). */
export const screenLoadOptions = {
  defaultPendingMs: ASYNC_SCREEN_DELAY_MS,
  defaultPendingMinMs: 0,
  defaultPendingComponent: ScreenLoading,
  defaultErrorComponent: ScreenError,
} as const

/** `history` is the tab's hash history; tests pass a memory history. */
export const createAppRouter = (history: RouterHistory = createHashHistory()) =>
  createRouter({ routeTree, history, parseSearch, stringifySearch, ...screenLoadOptions })

export type AppRouter = ReturnType<typeof createAppRouter>
