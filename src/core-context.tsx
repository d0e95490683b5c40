// Hands the tab's core client to screens: <CoreProvider> at the root, useCore() in a screen.
import { createContext, useContext, type ReactNode } from 'react'
import type { CoreClient } from './core/types.ts'

const CoreContext = createContext<CoreClient | null>(null)

export const CoreProvider = ({ core, children }: { core: CoreClient; children: ReactNode }) => (
  <CoreContext.Provider value={core}>{children}</CoreContext.Provider>
)

export const useCore = (): CoreClient => {
  const core = useContext(CoreContext)
  if (core === null) throw new Error('useCore() outside <CoreProvider>')
  return core
}
