// /package/personalInfo/personalInfo: the route; its screen is personalInfo.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.personalInfo,
  component: lazyScreen(() => import('./personalInfo.lazy.tsx')),
})
