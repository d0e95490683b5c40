// /package/adView/adView: the route; its screen is adView.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.adView,
  validateSearch: strings('url', 'adId'),
  component: lazyScreen(() => import('./adView.lazy.tsx')),
})
