// /preview-image: the route; its screen is preview-image.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../router/lazy-screen.ts'
import { PATHS } from '../router/paths.ts'
import { rootRoute } from '../router/root.tsx'
import { strings } from '../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.previewImage,
  validateSearch: strings('url', 'urls'),
  component: lazyScreen(() => import('./preview-image.lazy.tsx')),
})
