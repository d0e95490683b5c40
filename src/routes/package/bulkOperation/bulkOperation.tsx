// /package/bulkOperation/bulkOperation: the route; its screen is bulkOperation.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.bulkOperation,
  component: lazyScreen(() => import('./bulkOperation.lazy.tsx')),
})
