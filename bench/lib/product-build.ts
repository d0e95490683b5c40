// One production build of the app per bench run (the product's vite.config.ts, unchanged) into a temp folder, with
// a manifest; shared by the bundle and cold-start parts, served by vite preview with the API proxied.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, preview, type PreviewServer } from 'vite'
import { BASE_PATH } from '../../worker/protocol/constants.ts'
import { repoRoot } from './paths.ts'

export interface ProductBuild {
  readonly outDir: string
  readonly base: string
}

let pending: Promise<ProductBuild> | null = null
const outDirs: string[] = []

export const productBuild = (): Promise<ProductBuild> => {
  pending ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'bench-app-'))
    outDirs.push(outDir)
    await build({
      configFile: join(repoRoot, 'vite.config.ts'),
      root: repoRoot,
      logLevel: 'error',
      clearScreen: false,
      build: { outDir, emptyOutDir: true, manifest: true },
    })
    return { outDir, base: BASE_PATH }
  })()
  return pending
}

export interface ServedApp {
  readonly origin: string
  readonly appUrl: string
  readonly close: () => Promise<void>
}

export const serveProductBuild = async (apiTarget: string): Promise<ServedApp> => {
  const { outDir, base } = await productBuild()
  const server: PreviewServer = await preview({
    configFile: join(repoRoot, 'vite.config.ts'),
    root: repoRoot,
    logLevel: 'silent',
    build: { outDir },
    preview: {
      host: '127.0.0.1', port: 0, strictPort: false, open: false,
      proxy: {
        // ws: the phone stream's socket is under /api (worker/protocol/stream.ts STREAM_PATH). The server takes a socket
        // from a page of its own origin only (server/http/socket-origin.ts): the proxy, which serves the app as a
        // same-origin front, says so (Host and Origin both name the target).
        '/api': { target: apiTarget, changeOrigin: true, ws: true, headers: { origin: new URL(apiTarget).origin } },
        '/push': { target: apiTarget.replace(/^http/, 'ws'), ws: true, changeOrigin: true, headers: { origin: new URL(apiTarget).origin } },
      },
    },
  })
  const address = server.httpServer.address()
  if (address === null || typeof address === 'string') throw new Error('app preview has no port')
  const origin = `http://127.0.0.1:${address.port}`
  return { origin, appUrl: `${origin}${base}`, close: () => server.close() }
}

export const removeProductBuilds = (): void => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true })
}
