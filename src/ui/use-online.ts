// Whether this tab has a network (navigator.onLine and its online/offline events). The core's push status and the
// device list's error say what failed; this says why, so a screen can show the offline notice and disable actions.
import { useSyncExternalStore } from 'react'

const subscribe = (onChange: () => void): (() => void) => {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

export const useOnline = (): boolean => useSyncExternalStore(subscribe, () => navigator.onLine, () => true)
