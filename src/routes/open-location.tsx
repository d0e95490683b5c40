// /open-location: the route; its screen is open-location.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../router/lazy-screen.ts'
import { PATHS } from '../router/paths.ts'
import { rootRoute } from '../router/root.tsx'
import { strings } from '../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.openLocation,
  validateSearch: strings('latitude', 'longitude', 'name'),
  component: lazyScreen(() => import('./open-location.lazy.tsx')),
})
