// After a sign-in or a binding: wait for the core's SessionChanged to reach this tab's store (so the guard lets the
// user through), then replace the screen with home, or with the screen a visitor was turned away from; unless the user
// went to another screen meanwhile.
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { mustBindPhone } from '../../router/guard.ts'
import { useCore } from '../../core-context.tsx'
import { signedInDestination } from '../../router/intended.ts'
import { appStore, type AppState } from '../../store/index.ts'
import { waitFor } from '../../store/wait-for.ts'
import { useMounted } from '../../lib/use-mounted.ts'

/** How long to wait for the session event before navigating anyway (the guard then decides). */
const SESSION_EVENT_WAIT_MS = 3_000

/** Signed in with a bound phone: what registration, SMS login and binding wait for. */
const signedInAndBound = (s: AppState): boolean => s.session.loggedIn && !mustBindPhone(s.session)

/** `ready`: the store state to wait for (a module-level function; the password login waits for the sign-in alone and
 * lets the guard send an account that must bind its phone to the bind page). */
export const useEnterHome = (ready: (s: AppState) => boolean = signedInAndBound): (() => Promise<void>) => {
  const navigate = useNavigate()
  const { api } = useCore()
  const mounted = useMounted()
  return useCallback(async () => {
    await waitFor(appStore, ready, SESSION_EVENT_WAIT_MS)
    const destination = await signedInDestination(api)
    // the user may have gone to another screen meanwhile: they stay there
    if (mounted()) await navigate({ ...destination, replace: true })
  }, [api, navigate, mounted, ready])
}
