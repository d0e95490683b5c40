// /package/authorizedDevices/authorizedDevices: the route; its screen is authorizedDevices.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.authorizedDevices,
  component: lazyScreen(() => import('./authorizedDevices.lazy.tsx')),
})
