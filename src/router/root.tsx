// The root route every screen's route hangs from: the layout (title rule, analytics, screen metrics) and the guard of
// §5/§6 in its beforeLoad, followed on every navigation.
import { createRootRoute, Outlet, redirect, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { Analytics } from '../features/analytics/Analytics.tsx'
import { useScreenMetrics } from '../features/session/screen-metrics.ts'
import { appStore } from '../store/index.ts'
import { applyTitleWithRetry } from '../ui/title.ts'
import { guard } from './guard.ts'
import { noteIntended } from './intended.ts'
import { PATHS, ROUTE_PATHS } from './paths.ts'

const KNOWN_PATHS: ReadonlySet<string> = new Set(ROUTE_PATHS)

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

export const rootRoute = createRootRoute({
  component: RootLayout,
  beforeLoad: ({ location }) => {
    const session = appStore.getState().session
    const target = guard(location.pathname, session, navigator.userAgent)
    if (target === null) return
    // a visitor turned away from a protected screen gets there after signing in (src/router/intended.ts)
    if (!session.loggedIn && target === PATHS.home && KNOWN_PATHS.has(location.pathname)) noteIntended(location.href)
    throw redirect({ to: target === PATHS.home ? '/' : target, replace: true })
  },
})
