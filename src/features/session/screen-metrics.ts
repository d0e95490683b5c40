// statusBarHeight (§3 key) written at each tab's boot and read at the next boot's first paint (main.tsx). On the web
// the status bar is the top safe area (env(safe-area-inset-top): a notched phone's app or standalone PWA; 0 in an
// ordinary browser tab); the navigation bar sizes itself by it (§1). The window height key is not written: no rule
// reads it (the layout follows the viewport).
import { useEffect } from 'react'
import { useCore } from '../../core-context.tsx'
import { appStore } from '../../store/index.ts'

/** The top safe-area inset in CSS pixels, read through a probe element. */
export const topSafeArea = (): number => {
  const probe = document.createElement('div')
  probe.style.cssText = 'position:fixed;visibility:hidden;padding-top:env(safe-area-inset-top, 0px)'
  document.body.append(probe)
  const px = Number.parseFloat(getComputedStyle(probe).paddingTop) || 0
  probe.remove()
  return Math.round(px)
}

export const useScreenMetrics = (): void => {
  const { api } = useCore()
  useEffect(() => {
    const statusBar = topSafeArea()
    void api.setLocal('statusBarHeight', String(statusBar))
    appStore.getState().setTab({ statusBarHeight: statusBar })
  }, [api])
}
