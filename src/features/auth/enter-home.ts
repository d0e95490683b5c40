// After a sign-in or a binding: wait until this tab's store has applied what the command changed (its answer's seq,
// CoreClient.reached), then replace the screen with home, or with the screen a visitor was turned away from (the
// guard sends an account that must bind its phone to the bind page); unless the user went to another screen meanwhile.
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { useCore } from '../../core-context.tsx'
import { signedInDestination } from '../../router/intended.ts'
import { useMounted } from '../../lib/use-mounted.ts'

/** `seq`: the seq the sign-in's (or the refresh's) answer carries; 0 when the store already shows the session. */
export const useEnterHome = (): ((seq: number) => Promise<void>) => {
  const navigate = useNavigate()
  const { api, reached } = useCore()
  const mounted = useMounted()
  return useCallback(async (seq: number) => {
    await reached(seq)
    const destination = await signedInDestination(api)
    // the user may have gone to another screen meanwhile: they stay there
    if (mounted()) await navigate({ ...destination, replace: true })
  }, [api, reached, navigate, mounted])
}
