// /package/purchase/renew: the route; its screen is renew.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.renew,
  validateSearch: strings('userCardId'),
  component: lazyScreen(() => import('./renew.lazy.tsx')),
})
