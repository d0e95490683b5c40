// /package/timingRecord/timingRecord: the route; its screen is timingRecord.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.timingRecord,
  validateSearch: strings('userCardId'),
  component: lazyScreen(() => import('./timingRecord.lazy.tsx')),
})
