// The navigation guard of §5/§6 as a pure function; order per decisions.md: in-app browser, visitor whitelist,
// bind-phone forcing. The router calls it in the root route's beforeLoad and follows each redirect.
import type { SessionSlice as SessionState } from '../../worker/protocol/projection/index.ts'
import { canonicalPath, PATHS } from './paths.ts'

/** §6: the only routes a visitor (no token) may open. */
export const VISITOR_ROUTES: ReadonlySet<string> = new Set([
  PATHS.login,
  PATHS.registerAccount,
  PATHS.quickLogin,
  PATHS.verificationCode,
  PATHS.forgotPassword,
  PATHS.agreemen,
  PATHS.cover,
  PATHS.home,
  PATHS.ubertragungsseite,
  PATHS.adView,
])

/** decisions.md: WeChat (`MicroMessenger`) or QQ's in-app browser (` QQ/`, not QQBrowser). */
export const isInAppBrowser = (userAgent: string): boolean => userAgent.includes('MicroMessenger') || userAgent.includes(' QQ/')

/** decisions.md: bind-phone is done when the stored phone is all digits and userType is not 2 (as numbers). */
export const mustBindPhone = (session: SessionState): boolean => {
  if (!session.loggedIn) return false
  const phone = session.phone ?? session.user?.phone ?? ''
  return /\D/.test(phone) || Number(session.user?.userType) === 2
}

/**
 * One step of the guard: where `path` must redirect to, or null to stay. The home is public (§6): a visitor sees it
 * with a prompt to log in, so a forced exit "without redirect" leaves the tab where it is, under its modal.
 */
export const guard = (path: string, session: SessionState, userAgent: string): string | null => {
  const at = canonicalPath(path)
  if (isInAppBrowser(userAgent)) return at === PATHS.cover ? null : PATHS.cover
  if (at === PATHS.cover) return PATHS.home
  if (!session.loggedIn) {
    return VISITOR_ROUTES.has(at) ? null : PATHS.home
  }
  if (mustBindPhone(session)) return at === PATHS.bindingNumber ? null : PATHS.bindingNumber
  return null
}

/** Follows the guard until it settles: the route a navigation to `path` finally shows. */
export const guardedDestination = (path: string, session: SessionState, userAgent: string): string => {
  let at = canonicalPath(path)
  for (let hops = 0; hops < 5; hops++) {
    const next = guard(at, session, userAgent)
    if (next === null) return at
    at = next
  }
  return at
}
