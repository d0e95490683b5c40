// /pages/registerAccount/registerAccount: the route; its screen is registerAccount.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'
import { strings } from '../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.registerAccount,
  validateSearch: strings('invitationUserName'),
  component: lazyScreen(() => import('./registerAccount.lazy.tsx')),
})
