// The e2e `test`: every context starts with this tab session's pop-up ads already shown, so the overlay does not
// cover the screens under test; the ads themselves are tested in a context without it (`testWithAds`). Both fail a
// test in which any page reports a Content-Security-Policy violation (issue 11: the policy must not break a screen).
import { test as base, expect, type BrowserContext } from '@playwright/test'

export async function skipPopUpAds(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => sessionStorage.setItem('popUpAdsShown', '1'))
}

/** Collects the context's CSP violations: the pages' securitypolicyviolation events and the console's refusals. */
export async function watchContentSecurity(context: BrowserContext): Promise<string[]> {
  const violations: string[] = []
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => void violations.push(text))
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (globalThis as { __reportCspViolation?: (text: string) => void }).__reportCspViolation
      report?.(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} in ${e.documentURI} (${e.sourceFile}:${e.lineNumber})`)
    })
  })
  context.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

export const testWithAds = base.extend({
  context: async ({ context }, use) => {
    const violations = await watchContentSecurity(context)
    await use(context)
    expect(violations, 'Content-Security-Policy violations').toEqual([])
  },
})

export const test = testWithAds.extend({
  context: async ({ context }, use) => {
    await skipPopUpAds(context)
    await use(context)
  },
})
export { expect } from '@playwright/test'
