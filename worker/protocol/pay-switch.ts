// The payment switch (§3): which OS a request comes from, named like uni-app's osName. The server derives osName from
// the request's User-Agent and returns it with the switch; the screens use the server's osName and read the user
// agent themselves only when a server sends none.
export type OsName = 'ios' | 'android' | 'harmonyos' | 'windows' | 'macos' | 'linux' | 'other'

export const osNameOf = (userAgent: string): OsName => {
  if (/OpenHarmony|HarmonyOS/i.test(userAgent)) return 'harmonyos'
  if (/Android/i.test(userAgent)) return 'android'
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  // iPadOS 13+ asks for desktop pages as "Macintosh"; a touch point tells them apart only in the page, not here
  if (/Macintosh|Mac OS X/i.test(userAgent)) return 'macos'
  if (/Windows/i.test(userAgent)) return 'windows'
  if (/Linux|X11|CrOS/i.test(userAgent)) return 'linux'
  return 'other'
}

/** iosBuySwitch governs iOS; androidBuySwitch every other system (the app is sold outside Apple's store there). */
export const buySwitchOn = (sw: { iosBuySwitch: boolean; androidBuySwitch: boolean }, osName: string): boolean =>
  osName === 'ios' ? sw.iosBuySwitch : sw.androidBuySwitch
