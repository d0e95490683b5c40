// Issue 11 finding 8 (in part): every response forbids framing and content sniffing, API and app files alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestServer, type TestServer } from '../server/helpers.ts'

// real work on a shared machine: the limit only stops a hung test
vi.setConfig({ testTimeout: 120_000 })

let t: TestServer
const appDir = mkdtempSync(join(tmpdir(), 'h11-app-'))

beforeAll(async () => {
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>t</title>')
  t = await startTestServer({ serveApp: true, appDir })
}, 180_000)
afterAll(async () => {
  await t?.stop()
  rmSync(appDir, { recursive: true, force: true })
})

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
