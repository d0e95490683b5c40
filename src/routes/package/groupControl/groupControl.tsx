// /package/groupControl/groupControl?ids=: the route (ours, issue 23); its screen is groupControl.lazy.tsx. `ids`: the
// phones chosen on the way in (the wall's long-press selection), comma-separated userCardIds.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.groupControl,
  validateSearch: strings('ids'),
  component: lazyScreen(() => import('./groupControl.lazy.tsx')),
})
