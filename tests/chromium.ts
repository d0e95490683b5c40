// Flags for Debian's Chromium on a closed network (TESTING.md).

// Chromium keeps only the last --disable-features on its command line, and Playwright passes its own list first: ours
// is that list (playwright-core 1.64's, checked against the installed one by tests/unit/system/chromium-flags.test.ts)
// plus the features to turn off here.
export const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying',
  'AimEnabled', 'PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
]
// Chromium 156 builds the address bar's pop-ups (chrome://omnibox-popup.top-chrome, two WebUI renderers) even when
// headless: up to 600 ms of JavaScript at a time on this 2-core machine, in the middle of a measured page load.
export const ownDisabledFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']

// `alsoDisabled`: features a caller turns off on top of ours, in the same (and so the only) --disable-features
export const chromiumArgsDisabling = (alsoDisabled: readonly string[]) => [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
  `--disable-features=${[...playwrightDisabledFeatures, ...ownDisabledFeatures, ...alsoDisabled].join(',')}`,
]
export const chromiumArgs = chromiumArgsDisabling([])
