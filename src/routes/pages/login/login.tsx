// /pages/login/login: the route; its screen is login.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.login,
  validateSearch: strings('invitationUserName'),
  component: lazyScreen(() => import('./login.lazy.tsx')),
})
