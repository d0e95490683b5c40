// The installable shell (issue 12): modal semantics for overlays, and the service worker that precaches the app so an
// offline reload still paints. A new version waits until the user takes it ("新版本可用，点击刷新"), so one page never
// mixes chunks of two versions.
/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register'
import { installDialogA11y } from './dialog-a11y.ts'

/** How often an open tab asks for a new version besides navigations and coming back online. */
const UPDATE_CHECK_MS = 60 * 60 * 1000

export const installShell = (): void => {
  installDialogA11y()
  if (!('serviceWorker' in navigator)) return
  const update = registerSW({
    onNeedRefresh: () => void import('./update-prompt.ts').then(({ showUpdatePrompt }) => showUpdatePrompt(() => update(true))),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return
      const check = () => void registration.update().catch(() => undefined)
      setInterval(check, UPDATE_CHECK_MS)
      window.addEventListener('online', check)
    },
  })
}
