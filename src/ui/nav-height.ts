// The custom navigation bar's height (§1): status bar height + 50 on Android, + 45 otherwise.
import { NAVBAR_EXTRA_ANDROID, NAVBAR_EXTRA_OTHER } from '../../worker/protocol/constants.ts'

export const isAndroid = (userAgent: string): boolean => /Android/i.test(userAgent)

/** The stored status bar height, or 0 on the web where none was stored. */
export const statusBarHeightFrom = (stored: string | null): number => {
  const value = Number(stored)
  return stored !== null && stored !== '' && Number.isFinite(value) && value > 0 ? value : 0
}

export const navBarHeight = (statusBarHeight: number, userAgent: string): number =>
  statusBarHeight + (isAndroid(userAgent) ? NAVBAR_EXTRA_ANDROID : NAVBAR_EXTRA_OTHER)
