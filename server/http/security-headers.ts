// Headers on every response (issue 11 finding 8): no site may frame the app (transfer and authorise screens cannot be
// clickjacked), and no response is content-sniffed into another type. The app's own files carry the full policy
// (content-security.ts, set where they are served); anything else gets the framing rule alone.
// Issue 22 finding 10: no page leaks its address to another origin (Referrer-Policy); API answers, which carry
// personal data, are never stored by a browser or a shared cache unless the route says otherwise (files, ad pages);
// a request that came over https to a trusted balancer is told to keep to https (HSTS).
import type { App } from '../context.ts'
import { cameOverHttps } from './origin.ts'

export const SECURITY_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
} as const

export const REFERRER_POLICY = 'same-origin'
export const API_CACHE_CONTROL = 'no-store'
export const HSTS = 'max-age=31536000'

export const sendSecurityHeaders = (app: App): void => {
  app.use('*', async (c, next) => {
    await next()
    // a page with a policy of its own (the app, the reference pay gateway, an ad page) keeps it; one without a framing
    // rule gets ours added, and one that lets someone frame it (an ad page the app frames) gets no X-Frame-Options
    const own = c.res.headers.get('Content-Security-Policy')
    const ownFraming = own !== null && own.includes('frame-ancestors')
    const frameable = ownFraming && !own.includes("frame-ancestors 'none'")
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (name === 'Content-Security-Policy') c.header(name, own === null ? value : ownFraming ? own : `${own}; ${value}`)
      else if (name !== 'X-Frame-Options' || !frameable) c.header(name, value)
    }
    if (!c.res.headers.has('Referrer-Policy')) c.header('Referrer-Policy', REFERRER_POLICY)
    if (c.req.path.startsWith('/api/') && !c.res.headers.has('Cache-Control')) c.header('Cache-Control', API_CACHE_CONTROL)
    if (cameOverHttps(c)) c.header('Strict-Transport-Security', HSTS)
  })
}
