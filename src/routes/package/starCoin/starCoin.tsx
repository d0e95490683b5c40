// /package/starCoin/starCoin: the route; its screen is starCoin.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../router/lazy-screen.ts'
import { PATHS } from '../../../router/paths.ts'
import { rootRoute } from '../../../router/root.tsx'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.starCoin,
  component: lazyScreen(() => import('./starCoin.lazy.tsx')),
})
