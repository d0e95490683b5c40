// A part of a screen that is not seen at first (a closed sheet) mounts once the page is idle, or as soon as it is
// needed, instead of in the screen's first render: its render (antd-mobile's popups build their springs and gesture
// handlers while closed) is then a task of its own, sliced by React, not part of the page load's long tasks.
import { startTransition, useEffect, useState } from 'react'
import { whenIdle } from '../lib/when-idle.ts'

/** The longest a mount waits for an idle moment; where requestIdleCallback is missing (Safari), 200 ms. */
const IDLE = { timeoutMs: 2000, fallbackMs: 200 } as const

export const useIdleMount = (neededNow: boolean): boolean => {
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (idle) return
    return whenIdle(() => startTransition(() => setIdle(true)), IDLE)
  }, [idle])
  return idle || neededNow
}
