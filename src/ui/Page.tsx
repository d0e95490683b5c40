// A screen's frame: the custom navigation bar above the screen's body (the banner and main landmarks).
import type { ReactNode } from 'react'
import { NavBar, type NavBarProps } from './NavBar.tsx'

export const Page = ({ children, testId, ...nav }: NavBarProps & { children: ReactNode; testId?: string }) => (
  <div className="page" data-testid={testId}>
    <NavBar {...nav} />
    <main className="page-body">{children}</main>
  </div>
)
