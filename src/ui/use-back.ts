// The navigation bar's back action (§2 back behaviour) over the core's stored path / previousPagePath.
import { useRouter } from '@tanstack/react-router'
import { useCallback } from 'react'
import { useCore } from '../core-context.tsx'
import { backAction, UPDATE_INDEX_RESET } from '../router/back.ts'
import { PATHS } from '../router/paths.ts'
import { appStore } from '../store/index.ts'

export const useBack = (): (() => Promise<void>) => {
  const router = useRouter()
  const { api } = useCore()
  return useCallback(async () => {
    const [storedPath, previousPagePath] = await Promise.all([api.getLocal('path'), api.getLocal('previousPagePath')])
    const search = router.state.location.search as Record<string, string>
    const action = backAction({ storedPath, previousPagePath, search })
    if (action.kind === 'history') {
      // a screen opened directly (no page to go back to) goes home instead of leaving the app
      if (router.history.canGoBack()) router.history.back()
      else await router.navigate({ to: PATHS.home, replace: true })
      return
    }
    await Promise.all([api.setLocal('path', null), api.setLocal('previousPagePath', null)])
    // the tab's update index (§3 client state, per tab); no stored copy: no rule reads one, and one stored key for
    // every tab would contradict the per-tab state
    if (action.resetUpdateIndex) appStore.getState().setTab({ updateIndex: UPDATE_INDEX_RESET })
    await router.navigate({ to: action.to, search: action.search, replace: true })
  }, [api, router])
}
