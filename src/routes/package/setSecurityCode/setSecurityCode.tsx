// /package/setSecurityCode/setSecurityCode: the route; its screen is setSecurityCode.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.setSecurityCode,
  component: lazyScreen(() => import('./setSecurityCode.lazy.tsx')),
})
