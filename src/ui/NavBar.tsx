// The custom navigation bar (§1): `{systemName}云手机` title, height = status bar + 50 (Android) or + 45, §2 back.
import { NavBar as AdmNavBar } from 'antd-mobile'
import type { CSSProperties, ReactNode } from 'react'
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
      <AdmNavBar
        style={{ '--height': `${height - statusBar}px` } as CSSProperties}
        backIcon={back}
        back={back ? zhCN.app.back : null}
        onBack={() => void onBack()}
        right={right}
      >
        <span data-testid="nav-title">{title}</span>
      </AdmNavBar>
    </header>
  )
}
