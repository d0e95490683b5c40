// Headers on every response (issue 11 finding 8, in part): no site may frame the app (transfer and authorise
// screens cannot be clickjacked), and no response is content-sniffed into another type. A full Content-Security-Policy
// for the app's own pages is not sent yet: it needs checking in the browser against every screen first.
import type { App } from '../context.ts'

export const SECURITY_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
} as const

export const sendSecurityHeaders = (app: App): void => {
  app.use('*', async (c, next) => {
    await next()
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      // a page with a policy of its own (the reference pay gateway) keeps it, with the framing rule added
      const own = name === 'Content-Security-Policy' ? c.res.headers.get(name) : null
      c.header(name, own !== null && !own.includes('frame-ancestors') ? `${own}; ${value}` : value)
    }
  })
}
