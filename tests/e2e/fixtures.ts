// The e2e `test`: every context starts with this tab session's pop-up ads already shown, so the overlay does not
// cover the screens under test; the ads themselves are tested in a context without it.
import { test as base, type BrowserContext } from '@playwright/test'

export async function skipPopUpAds(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => sessionStorage.setItem('popUpAdsShown', '1'))
}

export const test = base.extend({
  context: async ({ context }, use) => {
    await skipPopUpAds(context)
    await use(context)
  },
})
export { expect } from '@playwright/test'
