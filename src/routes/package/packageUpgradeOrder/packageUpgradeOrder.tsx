// /package/packageUpgradeOrder/packageUpgradeOrder: the route; its screen is packageUpgradeOrder.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.packageUpgradeOrder,
  validateSearch: strings('myOrderNum'),
  component: lazyScreen(() => import('./packageUpgradeOrder.lazy.tsx')),
})
