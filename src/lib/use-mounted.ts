// Whether the screen that asked is still on screen: work that finishes after the user went elsewhere (a sign-in that
// answers after they opened another screen) must not take them back.
import { useCallback, useEffect, useRef } from 'react'

export const useMounted = (): (() => boolean) => {
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => { mounted.current = false }
  }, [])
  return useCallback(() => mounted.current, [])
}
