// After a sign-in or a binding: wait for the core's SessionChanged to reach this tab's store (so the guard lets the
// user through), then replace the screen with home.
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { mustBindPhone } from '../../router/guard.ts'
import { HOME } from '../../router/paths.ts'
import { appStore } from '../../store/index.ts'
import { waitFor } from '../../store/wait-for.ts'

/** How long to wait for the session event before navigating anyway (the guard then decides). */
const SESSION_EVENT_WAIT_MS = 3_000

export const useEnterHome = (): (() => Promise<void>) => {
  const navigate = useNavigate()
  return useCallback(async () => {
    await waitFor(appStore, (s) => s.session.loggedIn && !mustBindPhone(s.session), SESSION_EVENT_WAIT_MS)
    await navigate({ to: HOME, replace: true })
  }, [navigate])
}
