// /pages/cover/cover: the route; its screen is cover.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.cover,
  component: lazyScreen(() => import('./cover.lazy.tsx')),
})
