// The custom navigation bar (§1): `{systemName}云手机` title, height = status bar + 50 (Android) or + 45, §2 back.
// Plain markup rather than antd-mobile's NavBar, whose left slot is an unnamed role="button" on every screen and whose
// back action is a click-only div; here the back is a real, named button the title stays a label (each screen names itself in its own heading).
import type { ReactNode } from 'react'
import { zhCN } from '../i18n/zh-CN.ts'
import { useAppStore } from '../store/index.ts'
import { navBarHeight } from './nav-height.ts'
import { titleFor } from './title.ts'
import { useBack } from './use-back.ts'

export interface NavBarProps {
  /** show the back arrow (screens other than home and login). */
  readonly back?: boolean
  readonly right?: ReactNode
}

export const useSystemTitle = (): string => useAppStore((s) => titleFor(s.systemName)) ?? zhCN.app.fallbackTitle

export const NavBar = ({ back = true, right }: NavBarProps) => {
  const title = useSystemTitle()
  const statusBar = useAppStore((s) => s.tab.statusBarHeight)
  const onBack = useBack()
  const height = navBarHeight(statusBar, navigator.userAgent)
  return (
    <header className="navbar" style={{ height, paddingTop: statusBar }}>
      <div className="navbar-bar" style={{ height: height - statusBar }}>
        <div className="navbar-side">
          {back && (
            <button type="button" className="navbar-back" onClick={() => void onBack()}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path d="M15 4.5 7.5 12l7.5 7.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              <span>{zhCN.app.back}</span>
            </button>
          )}
        </div>
        <div className="navbar-title" data-testid="nav-title">{title}</div>
        <div className="navbar-side navbar-right">{right}</div>
      </div>
    </header>
  )
}
