// /package/batchPurchase/batchPurchase: the route; its screen is batchPurchase.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.batchPurchase,
  validateSearch: strings('phoneType', 'androidVersion'),
  component: lazyScreen(() => import('./batchPurchase.lazy.tsx')),
})
