// Drives the built app like a phone user: logs the demo user in through the login screen and waits for the device
// list; shared by the cold-start, memory, wall and group-control parts.
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, DEMO_PHONE } from './reference-server.ts'

export const DEVICE_ITEM = '[data-testid="device-item"]'

/** Installed before any page script: the time of the first frame after the first device row is in the DOM. */
export const devicePaintProbe = (): void => {
  const w = window as unknown as { __deviceListPaintedAt?: number }
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="device-item"]')) return
    observer.disconnect()
    requestAnimationFrame(() => { w.__deviceListPaintedAt = performance.now() })
  })
  observer.observe(document, { subtree: true, childList: true })
}

/** `until`: what shows the home is there (the first device row by default). */
export const logInThroughScreen = async (page: Page, appUrl: string, { phone = DEMO_PHONE, until = DEVICE_ITEM } = {}): Promise<void> => {
  await page.goto(`${appUrl}#/pages/login/login`, { waitUntil: 'load', timeout: 60_000 })
  await page.getByTestId('login-phone').fill(phone, { timeout: 60_000 })
  await page.getByTestId('login-password').fill(DEMO_PASSWORD)
  await page.getByTestId('login-submit').click()
  await page.locator(until).first().waitFor({ timeout: 60_000 })
}
