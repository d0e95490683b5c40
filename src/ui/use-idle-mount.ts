// A part of a screen that is not seen at first (a closed sheet) mounts once the page is idle, or as soon as it is
// needed, instead of in the screen's first render: its render (antd-mobile's popups build their springs and gesture
// handlers while closed) is then a task of its own, sliced by React, not part of the page load's long tasks.
import { startTransition, useEffect, useState } from 'react'

/** Idle fallback where requestIdleCallback is missing (Safari). */
const IDLE_FALLBACK_MS = 200
/** The longest a mount waits for an idle moment. */
const IDLE_TIMEOUT_MS = 2000

export const useIdleMount = (neededNow: boolean): boolean => {
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (idle) return
    const mount = () => startTransition(() => setIdle(true))
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(mount, { timeout: IDLE_TIMEOUT_MS })
      return () => window.cancelIdleCallback(id)
    }
    const id = setTimeout(mount, IDLE_FALLBACK_MS)
    return () => clearTimeout(id)
  }, [idle])
  return idle || neededNow
}
