// Resolves once the store satisfies a condition (e.g. the session event that follows a login), or false on timeout.
import type { StoreApi } from 'zustand/vanilla'

export const waitFor = <S>(store: StoreApi<S>, ready: (state: S) => boolean, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (ready(store.getState())) return resolve(true)
    const timer = setTimeout(() => {
      unsubscribe()
      resolve(false)
    }, timeoutMs)
    const unsubscribe = store.subscribe((state) => {
      if (!ready(state)) return
      clearTimeout(timer)
      unsubscribe()
      resolve(true)
    })
  })
