// The e2e `test`: every context starts with this tab session's pop-up ads already shown, so the overlay does not
// cover the screens under test; the ads themselves are tested in a context without it (`testWithAds`). Both fail a
// test in which any page reports a Content-Security-Policy violation (issue 11: the policy must not break a screen),
// and (issue 21) a test in which any page of any of its contexts throws (`pageerror`) or logs a console error, or the
// reference server logs an unexpected error while it runs. An error a test provokes on purpose is allowed by that test
// alone, with its reason: `allowErrors.page(/pattern/, 'why')`, `allowErrors.server(/pattern/, 'why')`.
import { readFileSync, statSync } from 'node:fs'
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test'
import { unexpectedServerErrors } from './server-log.ts'

/** In a context or one page. The script runs in every document and frame, about:blank and a sandboxed ad frame
 * included, where reading sessionStorage throws (an opaque origin has none): those are skipped, not errors. */
export async function skipPopUpAds(target: Pick<BrowserContext, 'addInitScript'>): Promise<void> {
  await target.addInitScript(() => {
    try {
      sessionStorage.setItem('popUpAdsShown', '1')
    } catch {
      // not the app's document
    }
  })
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
    if (isCspReport(message.text())) violations.push(message.text())
  })
  return violations
}

const isCspReport = (text: string): boolean => /Content.Security.Policy/i.test(text)

/** Errors a test provokes on purpose, allowed in that test only; each with the reason the test provokes it. */
export interface AllowErrors {
  /** a page's uncaught error or console error whose text matches. */
  page(pattern: RegExp, why: string): void
  /** a line the reference server logs as an unexpected error (`[server] ...`) that matches. */
  server(pattern: RegExp, why: string): void
}

interface Allowance {
  readonly pattern: RegExp
  readonly why: string
}

/** The pages' uncaught errors and console errors, from every page of every context the test opens. */
const watchPages = (): { watch(context: BrowserContext): void; errors: string[] } => {
  const errors: string[] = []
  const watched = new WeakSet<BrowserContext>()
  const watchPage = (page: Page) => {
    page.on('pageerror', (error) => void errors.push(`pageerror in ${page.url()}: ${error.stack ?? error.message}`))
    page.on('console', (message) => {
      // CSP refusals are the CSP check's (watchContentSecurity), reported there
      if (message.type() !== 'error' || isCspReport(message.text())) return
      const at = message.location()
      errors.push(`console.error in ${page.url()}: ${message.text()}${at.url ? ` (${at.url}:${at.lineNumber})` : ''}`)
    })
  }
  return {
    errors,
    watch(context) {
      if (watched.has(context)) return
      watched.add(context)
      context.pages().forEach(watchPage)
      context.on('page', watchPage)
    },
  }
}

/** The e2e server's log (global-setup.ts writes it as it goes): what it logged from `from` on. */
const serverLogSince = (from: number): string => {
  const file = process.env.E2E_SERVER_LOG
  if (!file) return ''
  const text = readFileSync(file)
  return text.subarray(Math.min(from, text.length)).toString()
}
const serverLogSize = (): number => {
  const file = process.env.E2E_SERVER_LOG
  return file ? statSync(file).size : 0
}

/** Servers a file starts itself (tests/support/server-process.ts): their output is held to the same rule. */
const otherServers: Array<() => string> = []
export const watchServerOutput = (output: () => string): void => void otherServers.push(output)

const unexpected = (errors: ReadonlyArray<string>, allowed: ReadonlyArray<Allowance>): string[] =>
  errors.filter((e) => !allowed.some((a) => a.pattern.test(e)))

/**
 * Issue 40 item 5: `E2E_NO_SHARED_WORKER=1` runs a test as a browser without SharedWorker would (the core a dedicated
 * worker per tab, src/core/connect.ts): the constructor is removed before any script of the page runs.
 */
export const noSharedWorker = process.env.E2E_NO_SHARED_WORKER === '1'
const removeSharedWorker = (context: BrowserContext): Promise<unknown> =>
  context.addInitScript(() => { delete (globalThis as { SharedWorker?: unknown }).SharedWorker })

export const testWithAds = base.extend<{ allowErrors: AllowErrors; watchedPages: ReturnType<typeof watchPages> }>({
  // set up before the test's contexts and torn down after them (the context fixture depends on it), so it sees every
  // page from its first script to its close; contexts the test makes itself (browser.newContext) are watched too
  watchedPages: [async ({ browser }, use) => {
    const pages = watchPages()
    // contexts a test makes itself (browser.newContext) have no page yet when this runs: the script is in before any
    const watch = (context: BrowserContext) => {
      pages.watch(context)
      if (noSharedWorker) void removeSharedWorker(context)
    }
    browser.on('context', watch)
    try {
      await use(pages)
    } finally {
      browser.off('context', watch)
    }
  }, { auto: true }],
  allowErrors: [async ({ watchedPages }, use, testInfo) => {
    const allowedPage: Allowance[] = []
    const allowedServer: Allowance[] = []
    const logFrom = serverLogSize()
    const othersFrom = new Map(otherServers.map((output) => [output, output().length]))
    await use({
      page: (pattern, why) => void allowedPage.push({ pattern, why }),
      server: (pattern, why) => void allowedServer.push({ pattern, why }),
    })
    // the test's contexts are closed by now (they depend on this fixture); the server's last lines may still be in flight
    await new Promise((r) => setTimeout(r, 300))
    const server = [serverLogSince(logFrom), ...otherServers.map((output) => output().slice(othersFrom.get(output) ?? 0))].flatMap(unexpectedServerErrors)
    for (const a of [...allowedPage, ...allowedServer]) testInfo.annotations.push({ type: 'allowed error', description: `${a.pattern}: ${a.why}` })
    // a failed test already says why; these are added to it, and decide a test that passed otherwise
    expect.soft(unexpected(watchedPages.errors, allowedPage), 'errors the app\'s pages threw or logged (allowErrors.page for one the test provokes)').toEqual([])
    expect.soft(unexpected(server, allowedServer), 'unexpected errors the reference server logged during the test (allowErrors.server for one the test provokes)').toEqual([])
  }, { auto: true }],
  context: async ({ context, watchedPages, allowErrors: _ }, use) => {
    watchedPages.watch(context)
    if (noSharedWorker) await removeSharedWorker(context)
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
