// §9 back-to-top: a button that appears once the page has scrolled past 400 px and takes it back to the top in 100 ms.
import { memo, useEffect, useState } from 'react'
import { zhCN } from '../../i18n/zh-CN.ts'
import { BACK_TO_TOP } from './defaults.ts'

/** Scrolls the window from where it is to the top over `durationMs` (ease-out), one step per frame. */
export const scrollToTop = (durationMs: number = BACK_TO_TOP.durationMs): void => {
  const from = window.scrollY
  const start = performance.now()
  const step = (now: number) => {
    const progress = Math.min(1, (now - start) / durationMs)
    window.scrollTo(0, Math.round(from * (1 - progress) ** 2))
    if (progress < 1) requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
}

export const BackToTop = memo(function BackToTop() {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const onScroll = () => setShown(window.scrollY > BACK_TO_TOP.showAfterPx)
    // the first look waits for the frame after mounting: read during the commit, scrollY forces the whole new
    // screen's layout inside the task that mounted it (a long task on a slow phone)
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => { timer = setTimeout(onScroll, 0) })
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
      window.removeEventListener('scroll', onScroll)
    }
  }, [])
  if (!shown) return null
  return (
    <button type="button" className="kit-back-to-top" data-testid="back-to-top" aria-label={zhCN.backToTop} onClick={() => scrollToTop()}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path d="M5 15l7-7 7 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </button>
  )
})
