// /pages/index/index: the home's routes. The home is shown at `/`; its spec path lands there keeping its query (§2),
// so every way home (a guard, a navigation to PATHS.home) shows `#/`. Its screen is index.lazy.tsx.
import { createRoute, redirect } from '@tanstack/react-router'
import { nextTask } from '../../../boot/next-task.ts'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  // the libraries first, the screen in the next task (home-libraries.ts)
  component: lazyScreen(() => import('./home-libraries.ts').then(nextTask).then(() => import('./index.lazy.tsx'))),
})

export const HomeAliasRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.home,
  beforeLoad: ({ location }) => {
    throw redirect({ to: '/', search: location.search, replace: true })
  },
})
