// /pages/order/status: the route; its screen is status.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.orderStatus,
  validateSearch: strings('myOrderNum', 'next'),
  component: lazyScreen(() => import('./status.lazy.tsx')),
})
