// Issue 11 finding 8: every response forbids framing and content sniffing; the app's own files carry the full
// Content-Security-Policy, naming index.html's inline scripts and styles by hash; an ad page the app frames lets only
// the app.
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loginToken, useTestServer } from '../server/helpers.ts'

const inline = "document.documentElement.dataset.boot='1'"
const inlineStyle = '.boot{color:#333}'
const appDir = mkdtempSync(join(tmpdir(), 'h11-app-'))
writeFileSync(join(appDir, 'index.html'),
  `<!doctype html><title>t</title><script type="module" src="/x.js"></script><script>${inline}</script><style>${inlineStyle}</style>`)
writeFileSync(join(appDir, 'app.js'), 'export {}')
const t = useTestServer({ serveApp: true, appDir })
afterAll(() => rmSync(appDir, { recursive: true, force: true }))

const directives = (policy: string | null): Map<string, string[]> =>
  new Map((policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!, values]))

describe('security headers', () => {
  it('API answers refuse framing and sniffing', async () => {
    for (const path of ['/api/public/v1/system/config', '/api/no/such/path']) {
      const response = await fetch(t.server.url + path)
      expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      await response.arrayBuffer()
    }
  })

  it('the app\'s files carry the full policy: own scripts and styles and index.html\'s inline ones by hash, own connections, no plug-ins, no framing', async () => {
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`
    const styleHash = `'sha256-${createHash('sha256').update(inlineStyle).digest('base64')}'`
    for (const path of ['/cloud/phone/web/', '/cloud/phone/web/app.js']) {
      const response = await fetch(t.server.url + path)
      await response.arrayBuffer()
      const policy = directives(response.headers.get('content-security-policy'))
      expect(policy.get('default-src')).toEqual(["'self'"])
      expect(policy.get('script-src')).toEqual(path.endsWith('/') ? ["'self'", hash] : ["'self'"])
      expect(policy.get('style-src')).toEqual(path.endsWith('/') ? ["'self'", styleHash] : ["'self'"])
      expect(policy.get('connect-src')).toEqual(["'self'"])
      expect(policy.get('worker-src')).toEqual(["'self'"])
      expect(policy.get('object-src')).toEqual(["'none'"])
      expect(policy.get('base-uri')).toEqual(["'self'"])
      expect(policy.get('frame-ancestors')).toEqual(["'none'"])
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('the demo ad page may be framed by the app\'s origin only', async () => {
    const response = await fetch(`${t.server.url}/ads/promo/spring`)
    await response.arrayBuffer()
    expect(directives(response.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'self'"])
    expect(response.headers.get('x-frame-options')).toBeNull()
  })

  // issue 22 finding 10
  it('API answers, which carry personal data, are never stored; files keep their own caching', async () => {
    const { token } = await loginToken(t.server.url, '13500135000')
    const personal = await fetch(`${t.server.url}/api/user/v5/user/getHeadPortrait`, { headers: { Authorization: token, client: '7' } })
    await personal.arrayBuffer()
    expect(personal.headers.get('cache-control')).toBe('no-store')
    for (const path of ['/api/public/v1/system/config', '/api/no/such/path']) {
      const response = await fetch(t.server.url + path)
      await response.arrayBuffer()
      expect(response.headers.get('cache-control')).toBe('no-store')
    }
    const app = await fetch(`${t.server.url}/cloud/phone/web/app.js`)
    await app.arrayBuffer()
    expect(app.headers.get('cache-control')).toBe('public, max-age=3600')
  })

  it('no page sends its address to another origin: Referrer-Policy on the app and every other answer', async () => {
    for (const path of ['/cloud/phone/web/', '/cloud/phone/web/app.js', '/api/public/v1/system/config', '/ads/promo/spring']) {
      const response = await fetch(t.server.url + path)
      await response.arrayBuffer()
      expect(response.headers.get('referrer-policy')).toBe('same-origin')
    }
  })

  it('no HSTS over plain http (a server with no trusted balancer ignores X-Forwarded-Proto)', async () => {
    const response = await fetch(`${t.server.url}/cloud/phone/web/`, { headers: { 'X-Forwarded-Proto': 'https' } })
    await response.arrayBuffer()
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })
})
