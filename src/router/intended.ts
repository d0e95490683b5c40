// Where a visitor was going when the guard sent them home (§3 path / previousPagePath; README Decisions): the router
// notes the protected route, the login screen stores it through the core as `path` (with `previousPagePath` the
// home it was sent to), and a sign-in then lands there instead of home, clearing both (the §2 rule for the two keys).
import { backAction } from './back.ts'
import { PATHS } from './paths.ts'

let pending: string | null = null

/** The router: a visitor was redirected away from `href` (path and query). */
export const noteIntended = (href: string): void => {
  pending = href
}

/** Takes (and forgets) the route a visitor was last sent away from. */
export const takeIntended = (): string | null => {
  const href = pending
  pending = null
  return href
}

export interface KeyStore {
  getLocal(key: 'path' | 'previousPagePath'): Promise<string | null>
  setLocal(key: 'path' | 'previousPagePath', value: string | null): Promise<void>
}

/** The login screen: keeps the noted route in the core's storage, so a sign-in in this tab goes back to it. */
export const storeIntended = async (keys: KeyStore, href: string | null = takeIntended()): Promise<void> => {
  if (href === null) return
  await Promise.all([keys.setLocal('path', href), keys.setLocal('previousPagePath', PATHS.home)])
}

/** Where a sign-in lands: the stored path when both keys are there (then cleared), else home. */
export const signedInDestination = async (keys: KeyStore): Promise<{ to: string; search: Record<string, string> }> => {
  const [storedPath, previousPagePath] = await Promise.all([keys.getLocal('path'), keys.getLocal('previousPagePath')])
  const action = backAction({ storedPath, previousPagePath, search: {} })
  if (action.kind === 'history') return { to: PATHS.home, search: {} }
  await Promise.all([keys.setLocal('path', null), keys.setLocal('previousPagePath', null)])
  return { to: action.to, search: action.search }
}
