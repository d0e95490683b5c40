// Issue 11 finding 8 (in part): every response forbids framing and content sniffing, API and app files alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../server/helpers.ts'

const appDir = mkdtempSync(join(tmpdir(), 'h11-app-'))
writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>t</title>')
const t = useTestServer({ serveApp: true, appDir })
afterAll(() => rmSync(appDir, { recursive: true, force: true }))

describe('security headers', () => {
  it('the app page and API answers refuse framing and sniffing', async () => {
    for (const path of ['/cloud/phone/web/', '/api/public/v1/system/config', '/api/no/such/path']) {
      const response = await fetch(t.server.url + path)
      expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      await response.arrayBuffer()
    }
  })
})
