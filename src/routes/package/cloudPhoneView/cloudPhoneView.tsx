// /package/cloudPhoneView/cloudPhoneView: the route; its screen is cloudPhoneView.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.cloudPhoneView,
  validateSearch: strings('userCardId'),
  component: lazyScreen(() => import('./cloudPhoneView.lazy.tsx')),
})
