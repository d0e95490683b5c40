// The bench page server: a production build (the product's Vite config, so React and the core run as they ship)
// of the bench pages, served by vite preview cross-origin isolated (fine-grained performance.now()), with /api and
// /push proxied to the reference server when one runs.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, preview, type Plugin, type PreviewServer } from 'vite'
import { repoRoot } from './paths.ts'

export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

/**
 * Prepends the socket probe to the product worker entry, so arrival times are taken and the push socket is pointed at
 * the bench push source without touching worker/.
 */
const probeProductWorker = (pushUrl: string | undefined): Plugin => ({
  name: 'bench-probe-product-worker',
  enforce: 'pre',
  transform(code, id) {
    const file = id.split('?')[0]
    if (file.endsWith('/bench/pages/ws-probe.ts') && pushUrl) {
      return { code: code.replace(`'bench-push-source-url'`, JSON.stringify(pushUrl)), map: null }
    }
    if (!file.endsWith('/worker/main.ts')) return null
    return { code: `import '/bench/pages/ws-probe.ts'\n${code}`, map: null }
  },
})

/** For a second build attempt when the product does not build yet: its modules become ones that fail when used. */
const stubProduct = (reason: string): Plugin => ({
  name: 'bench-stub-product',
  enforce: 'pre',
  load(id) {
    const file = id.split('?')[0]
    const message = JSON.stringify(`product did not build: ${reason}`)
    if (file.endsWith('/src/core/connect.ts')) return `export const connectCore = async () => { throw new Error(${message}) }`
    if (file.endsWith('/src/store/app-store.ts')) return `export const createAppStore = () => { throw new Error(${message}) }`
    return null
  },
})

export interface BenchPages {
  readonly origin: string
  readonly base: string
  /** the built pages (the chaos part's own server serves them). */
  readonly outDir: string
  /** why the bench pages were built without the product (null: built with it). */
  readonly productBuildError: string | null
  readonly pageUrl: (page: string, query?: Record<string, string | number>) => string
  readonly close: () => Promise<void>
}

export interface BenchPagesOptions {
  /** the reference server: /api (and /push when there is no pushUrl) are proxied to it. */
  readonly apiTarget?: string
  /** the push source the core's socket is pointed at. */
  readonly pushUrl?: string
  /** false keeps function names readable (the worker trace, bench/trace-worker.ts); the measured build is minified. */
  readonly minify?: boolean
}

export const startBenchPages = async (options: BenchPagesOptions = {}): Promise<BenchPages> => {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-pages-'))
  const common = { configFile: join(repoRoot, 'vite.config.ts'), root: repoRoot, logLevel: 'error' as const, clearScreen: false }
  // the worker bundle is built by its own plugin pipeline (worker.plugins), so the probe and stubs go there too
  const buildWith = (plugins: Plugin[]) => build({
    ...common,
    plugins,
    worker: { format: 'es', plugins: () => plugins },
    build: {
      outDir,
      emptyOutDir: true,
      minify: options.minify ?? true,
      rollupOptions: { input: { dispatch: join(repoRoot, 'bench/pages/dispatch.html'), phone: join(repoRoot, 'bench/pages/phone.html') } },
    },
  })
  let productBuildError: string | null = null
  try {
    await buildWith([probeProductWorker(options.pushUrl)])
  } catch (e) {
    productBuildError = (e instanceof Error ? e.message : String(e)).split('\n')[0]
    await buildWith([probeProductWorker(options.pushUrl), stubProduct(productBuildError)])
  }
  const proxy: Record<string, object> = {}
  if (options.apiTarget) {
    proxy['/api'] = { target: options.apiTarget, changeOrigin: true }
    proxy['/push'] = { target: options.apiTarget.replace(/^http/, 'ws'), ws: true, changeOrigin: true }
  }
  const server: PreviewServer = await preview({
    ...common,
    // the proxy logs every socket the bench closes as an error
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, headers: isolationHeaders, proxy, open: false },
  })
  const address = server.httpServer.address()
  if (address === null || typeof address === 'string') throw new Error('bench page server has no port')
  const origin = `http://127.0.0.1:${address.port}`
  const base = server.config.base
  return {
    origin,
    base,
    outDir,
    productBuildError,
    pageUrl: (page, query = {}) => {
      const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
      return `${origin}${base}bench/pages/${page}${q ? `?${q}` : ''}`
    },
    close: async () => {
      await server.close()
      rmSync(outDir, { recursive: true, force: true })
    },
  }
}
