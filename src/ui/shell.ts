// The installable shell (issue 12): modal semantics for overlays, and the service worker that precaches the app so an
// offline reload still paints. A new version waits until the user takes it ("新版本可用，点击刷新"), so one page never
// mixes chunks of two versions. Both load after the first paint's JS (they are not needed to show the login screen).
/// <reference types="vite-plugin-pwa/vanillajs" />
import { whenIdle } from '../lib/when-idle.ts'

/** How often an open tab asks for a new version besides navigations and coming back online. */
const UPDATE_CHECK_MS = 60 * 60 * 1000

const registerServiceWorker = async (): Promise<void> => {
  const { registerSW } = await import('virtual:pwa-register')
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => void import('./update-prompt.ts').then(({ showUpdatePrompt }) => showUpdatePrompt(() => update(true))),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return
      const check = () => void registration.update().catch(() => undefined)
      setInterval(check, UPDATE_CHECK_MS)
      window.addEventListener('online', check)
    },
  })
}

/** The longest the registration waits for an idle moment after the load (Safari, without requestIdleCallback: 1 s). */
const REGISTER_IDLE = { timeoutMs: 3000, fallbackMs: 1000 } as const

export const installShell = (): void => {
  void import('./dialog-a11y.ts').then(({ installDialogA11y }) => installDialogA11y())
  if (!('serviceWorker' in navigator)) return
  // after the load, once the page is idle: the registration (workbox-window, the browser's register) does not add to
  // the tasks that bring up the first screen
  // (a registration whose script cannot load, the server or network gone, is made again at the next load)
  const start = () => void whenIdle(() => void registerServiceWorker().catch(() => undefined), REGISTER_IDLE)
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start, { once: true })
}
