// Starts the reference server (server/app.ts) on a free loopback port behind the test proxy and provides the
// proxy's URL to the browser tests.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startServer } from '../../server/app.ts'
import { startTestProxy } from '../support/test-proxy.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'core-browser-'))
  const server = await startServer({ port: 0, dataDir, serveApp: false, quiet: true })
  // the tests' pages are the vitest server's origin: the proxy answers them with CORS
  const proxy = await startTestProxy(server.url, { cors: true })
  project.provide('apiUrl', proxy.origin)
  return async () => {
    await proxy.close()
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
