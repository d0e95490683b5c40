// /package/purchase/components/alipayCodeScanning: the route; its screen is alipayCodeScanning.lazy.tsx.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../../../../router/lazy-screen.ts'
import { PATHS } from '../../../../router/paths.ts'
import { rootRoute } from '../../../../router/root.tsx'
import { strings } from '../../../../router/search.ts'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: PATHS.alipayCodeScanning,
  validateSearch: strings('myOrderNum', 'next'),
  component: lazyScreen(() => import('./alipayCodeScanning.lazy.tsx')),
})
