// The tab's router: the route tree (route-tree.ts) over hash history, plain-string search params, and how a screen
// that is loading or failed to load shows. Registering its type makes every Link and navigate checked against the
// tree: a wrong path or search param is a type error.
import { createHashHistory, createRouter, type RouterHistory } from '@tanstack/react-router'
import { ASYNC_SCREEN_DELAY_MS } from '../../worker/protocol/constants.ts'
import { ScreenError } from '../ui/ScreenError.tsx'
import { ScreenLoading } from '../ui/ScreenLoading.tsx'
import { canonicalPath, PATHS } from './paths.ts'
import { routeTree } from './route-tree.ts'
import { parseSearch, stringifySearch } from './search.ts'

/** How a screen that is still loading or failed to load shows (§8, §9: the loading view after 200 ms). */
export const screenLoadOptions = {
  defaultPendingMs: ASYNC_SCREEN_DELAY_MS,
  defaultPendingMinMs: 0,
  defaultPendingComponent: ScreenLoading,
  defaultErrorComponent: ScreenError,
} as const

/** `history` is the tab's hash history; tests pass a memory history. */
export const createAppRouter = (history: RouterHistory = createHashHistory()) =>
  createRouter({ routeTree, history, parseSearch, stringifySearch, ...screenLoadOptions })

export type AppRouter = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter
  }
}

type Preloadable = { options: { path?: string; component?: unknown } }

/** Starts loading a screen's chunk (the boot does it for the entry route while it connects to the core). */
export const preloadScreen = (path: string): void => {
  const at = canonicalPath(path)
  const route = (routeTree.children as ReadonlyArray<Preloadable>).find((r) => r.options.path === (at === PATHS.home ? '/' : at))
  void (route?.options.component as { preload?: () => unknown } | undefined)?.preload?.()
}
