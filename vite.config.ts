// Build of the tab and worker bundles, the dev server, and the two vitest projects (node unit, real-browser).
import { configDefaults, defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { VitePWA } from 'vite-plugin-pwa'
import type { Plugin, Rollup } from 'vite'
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BOOT_SCREEN_HTML } from './src/boot/boot-screen.ts'
import { earlyBootScript } from './src/boot/early-core.ts'
import { HASHED_ASSET_CACHE_CONTROL, isHashedAsset } from './server/http/static-app.ts'
import { playwright } from '@vitest/browser-playwright'
import { chromiumArgs } from './tests/chromium.ts'

// The server suite: every test file that starts a reference server; it runs on PGlite (unit) and on PostgreSQL too.
const serverTests = [
  'tests/unit/server/**/*.test.ts', 'tests/unit/**/server-*.test.ts', 'tests/unit/home/messages-server.test.ts',
  'tests/unit/devices/sim-stream.test.ts', 'tests/unit/session/applet-login.test.ts',
]
// Several server processes over one database: PostgreSQL only.
const scaleOutTests = ['tests/unit/scale-out/**/*.test.ts']

/**
 * Issue 12: the screen a URL opens should not wait for the entry to run before its chunks download (a reload of the
 * home paints from the stored snapshot; the login screen's chunks were two requests deep behind the entry). An inline
 * script in index.html modulepreloads the opened screen's chunks (and preloads their CSS) when the URL opens one of
 * these screens; other screens load theirs as before, and no screen downloads another's (the JS before login stays
 * what that screen needs).
 */
const PRELOADED_SCREENS: ReadonlyArray<{ paths: ReadonlyArray<string>; module: RegExp }> = [
  // the screen's own chunk (index.lazy.tsx once its route config is a file of its own)
  { paths: ['/', '/pages/index/index'], module: /\/src\/routes\/pages\/index\/index(\.lazy)?\.tsx$/ },
  { paths: ['/pages/login/login'], module: /\/src\/routes\/pages\/login\/login(\.lazy)?\.tsx$/ },
]

const APP_MODULE = /\/src\/app\.tsx$/

/** A build-only rewrite of the built index.html, given the bundle and the base path. */
const builtIndexHtml = (name: string, rewrite: (html: string, bundle: Rollup.OutputBundle, base: string) => string): Plugin => {
  let base = '/'
  return {
    name,
    apply: 'build',
    configResolved: (config) => {
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => (ctx.path === '/index.html' ? rewrite(html, ctx.bundle ?? {}, base) : html),
    },
  }
}

const preloadScreensFromHtml = (): Plugin =>
  builtIndexHtml('preload-screens-from-html', (html, bundle, base) => {
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
    const closure = (file: string, into: Set<string>) => {
      const chunk = chunks.find((c) => c.fileName === file)
      if (!chunk || into.has(file)) return
      into.add(file)
      chunk.imports.forEach((i) => closure(i, into))
    }
    const entryFiles = new Set<string>()
    chunks.filter((c) => c.isEntry).forEach((c) => closure(c.fileName, entryFiles))
    // the app (src/app.tsx), which the entry imports once it runs: every page needs it, so index.html names its chunks
    // as it names the entry's, fetched with the entry's instead of after it
    const app = chunks.find((c) => APP_MODULE.test(c.facadeModuleId ?? ''))
    if (!app) throw new Error('preload-screens-from-html: no chunk of src/app.tsx')
    const appFiles = new Set<string>()
    closure(app.fileName, appFiles)
    entryFiles.forEach((f) => appFiles.delete(f))
    const loadedFirst = new Set([...entryFiles, ...appFiles])
    const cssOf = (files: Iterable<string>) => new Set([...files].flatMap((f) => [...(chunks.find((c) => c.fileName === f)?.viteMetadata?.importedCss ?? [])]))
    const entryCss = cssOf(entryFiles)
    const screens = PRELOADED_SCREENS.map(({ module }) => {
      const screen = chunks.find((c) => module.test(c.facadeModuleId ?? ''))
      if (!screen) throw new Error(`preload-screens-from-html: no chunk of the screen ${module}`)
      const files = new Set<string>()
      closure(screen.fileName, files)
      const js = [...files].filter((f) => !loadedFirst.has(f)).map((f) => base + f)
      const css = [...cssOf(files)].filter((f) => !entryCss.has(f)).map((f) => base + f)
      return [js, css]
    })
    const byPath = Object.fromEntries(PRELOADED_SCREENS.flatMap(({ paths }, i) => paths.map((path) => [path, i])))
    const script = `(function(){var p=(location.hash.slice(1).split('?')[0])||'/';var s=${JSON.stringify(screens)}[${JSON.stringify(byPath)}[p]];if(!s)return;` +
      `function l(r,h,a){var e=document.createElement('link');e.rel=r;e.href=h;if(a)e.as=a;e.crossOrigin='';document.head.appendChild(e)}` +
      `s[0].forEach(function(h){l('modulepreload',h)});s[1].forEach(function(h){l('preload',h,'style')})})()`
    // before the entry's module script: the screen's chunks are requested with the entry's, not after the parser
    // has gone through the rest of the head
    const at = html.indexOf('<script type="module"')
    if (at < 0) throw new Error('preload-screens-from-html: no module script in index.html')
    const appLinks = [...appFiles].map((f) => `\n    <link rel="modulepreload" crossorigin href="${base}${f}">`).join('')
    const afterEntry = html.indexOf('</script>', at) + '</script>'.length
    return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at, afterEntry)}${appLinks}${html.slice(afterEntry)}`
  })

/**
 * Issue 12: the entry's stylesheets are index.html's own <style> elements (the server's policy names them by hash), so
 * the boot screen paints once the HTML is parsed, without a stylesheet request (a round trip on a phone network)
 * holding the first paint. Each inlined file keeps a disabled <link> (not fetched): Vite's loader of lazy chunks lists
 * the CSS they need and skips a file a stylesheet link already names, so it does not apply the same rules a second
 * time, later in the cascade.
 */
const inlineEntryCss = (): Plugin =>
  builtIndexHtml('inline-entry-css', (html, bundle, base) =>
    html.replace(/<link rel="stylesheet" crossorigin href="([^"]+\.css)">/g, (link, href: string) => {
      const asset = bundle[href.slice(base.length)]
      if (asset?.type !== 'asset') throw new Error(`inline-entry-css: ${href} is not an asset of the build`)
      const css = String(asset.source)
      if (css.includes('</')) throw new Error(`inline-entry-css: ${href} cannot be inlined (contains "</")`)
      return `<style>${css}</style>\n    <link rel="stylesheet" href="${href}" disabled>`
    }))

/**
 * Issue 12: the app's `import { Button, Toast } from 'antd-mobile'` become imports of each component's own module
 * (the package's barrel, es/index.js, re-exports all 80 of them and its only effect is the global CSS, kept). What is
 * bundled is the same; the build's module graph then says which components each screen really uses, which the home's
 * chunk grouping (homeChunk) needs: through the barrel, everything the home uses looked shared with the entry.
 */
const ANTD_BARREL = fileURLToPath(new URL('./node_modules/antd-mobile/es/index.js', import.meta.url))
const antdDirectImports = (): Plugin => {
  // export name -> [module under antd-mobile/es, its export]; from the barrel's `export { a as B } from './x'` lines
  const exportsOf = (): Map<string, [string, string]> => {
    const barrel = readFileSync(ANTD_BARREL, 'utf8')
    const map = new Map<string, [string, string]>()
    for (const m of barrel.matchAll(/export\s*\{([^}]+)\}\s*from\s*'\.\/([^']+)'/g)) {
      for (const spec of m[1]!.split(',')) {
        const [imported, exported = imported] = spec.trim().split(/\s+as\s+/)
        if (imported) map.set(exported!.trim(), [m[2]!, imported.trim()])
      }
    }
    return map
  }
  let exported: Map<string, [string, string]> | null = null
  return {
    name: 'antd-direct-imports',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.tsx?$/.test(id) || !code.includes("'antd-mobile'")) return null
      exported ??= exportsOf()
      const names = exported
      const out = code.replace(/(import|export)\s*\{([^}]*)\}\s*from\s*'antd-mobile'/g, (_statement, kind: string, list: string) => {
        const specs = list.split(',').map((x) => x.trim()).filter(Boolean)
        const types = specs.filter((x) => x.startsWith('type '))
        const values = specs.filter((x) => !x.startsWith('type '))
        const direct = values.map((spec) => {
          const [name, local = name] = spec.split(/\s+as\s+/).map((x) => x.trim())
          const target = names.get(name!)
          if (!target) this.error(`antd-direct-imports: antd-mobile exports no ${name} (${id})`)
          return `${kind} { ${target[1]} as ${local} } from 'antd-mobile/es/${target[0]}'`
        })
        const typeOnly = types.length > 0 ? [`${kind} { ${types.join(', ')} } from 'antd-mobile'`] : []
        return [...(kind === 'import' ? ["import 'antd-mobile/es/global'"] : []), ...direct, ...typeOnly].join('; ')
      })
      return out === code ? null : { code: out, map: null }
    },
  }
}

/**
 * Issue 12: the home screen needs ~45 chunks besides the entry's (rolldown's automatic splitting cuts one per set of
 * screens sharing a module): a modulepreload link, a stylesheet, a request and module records each, before the list
 * paints. The modules that only the home's static imports reach (not the entry's, not the login screen's) form one
 * chunk: nothing of it loads before login, a module the home shares with the entry or the login stays where it was,
 * and another screen that uses one of these modules loads that chunk (mostly there already: screens open from home).
 */
const HOME_SCREEN = fileURLToPath(new URL('./src/routes/pages/index/index.lazy.tsx', import.meta.url))
// the home's libraries (its home-only modules from node_modules) are a chunk of their own, which the home's route
// imports a task before the screen (src/routes/pages/index/home-libraries.ts): two module evaluations, not one
const HOME_LIBRARIES = fileURLToPath(new URL('./src/routes/pages/index/home-libraries.ts', import.meta.url))
const NOT_HOME_ONLY = [
  fileURLToPath(new URL('./src/main.tsx', import.meta.url)),
  fileURLToPath(new URL('./src/app.tsx', import.meta.url)),
  fileURLToPath(new URL('./src/routes/pages/login/login.lazy.tsx', import.meta.url)),
]
type ModuleGraph = { getModuleInfo: (id: string) => { importedIds: ReadonlyArray<string> } | null }
const homeModules = (graph: ModuleGraph): { homeOnly: Set<string>; libraries: Set<string> } => {
  const reach = (from: ReadonlyArray<string>): Set<string> => {
    const seen = new Set<string>()
    const visit = (id: string): void => {
      if (seen.has(id)) return
      const info = graph.getModuleInfo(id)
      if (!info) return
      seen.add(id)
      info.importedIds.forEach(visit)
    }
    from.forEach(visit)
    return seen
  }
  // a build of other pages (the bench's) has no app entry: nothing to group
  if (graph.getModuleInfo(NOT_HOME_ONLY[0]!) === null) return { homeOnly: new Set(), libraries: new Set() }
  const shared = reach(NOT_HOME_ONLY)
  // through antd-mobile's barrel every component would look shared (antdDirectImports keeps the app off it)
  if (shared.has(ANTD_BARREL)) throw new Error('home-chunk: a module reached by the entry imports antd-mobile\'s barrel')
  // the screen's own module stays the facade of its lazy chunk (the preload plugin and the bench find it by name)
  const homeOnly = new Set([...reach([HOME_SCREEN, HOME_LIBRARIES])].filter((id) => id !== HOME_SCREEN && !shared.has(id)))
  // what home-libraries.ts reaches that only the home needs: a chunk whose modules import only each other and shared
  // ones, so neither home chunk imports from the other both ways
  const libraries = new Set([...reach([HOME_LIBRARIES])].filter((id) => homeOnly.has(id)))
  return { homeOnly, libraries }
}
const homeChunk = () => {
  const byPass = new WeakMap<object, ReturnType<typeof homeModules>>()
  const modulesOf = (ctx: ModuleGraph) => {
    let modules = byPass.get(ctx)
    if (!modules) byPass.set(ctx, (modules = homeModules(ctx)))
    return modules
  }
  return {
    // a home-only module imports home-only or shared modules, never the other way round: no cycle between chunks
    includeDependenciesRecursively: false,
    groups: [
      { priority: 2, name: (id: string, ctx: ModuleGraph) => (modulesOf(ctx).libraries.has(id) ? 'home-libraries' : null) },
      { priority: 1, name: (id: string, ctx: ModuleGraph) => (modulesOf(ctx).homeOnly.has(id) ? 'home' : null) },
    ],
  }
}

/**
 * antd-mobile's imperative overlays render through the function its utils/unstable-render.js hands out; the default
 * there is rc-util's legacy ReactDOM.render path (dead under React 19, where src/boot/antd-react19.ts sets a createRoot
 * renderer) and it cost ~3 kB gzip before login. src/boot/antd-render-seam.ts keeps the seam without that default.
 * Also a plugin of the dependency pre-bundling, so the dev server and browser tests run what the build ships; a build
 * that bundles antd-mobile but no longer imports the seam through it fails rather than shipping the old renderer
 * (builds without antd-mobile, such as the bench pages, have nothing to substitute).
 */
const antdRenderSeam = (): Plugin => {
  const seam = fileURLToPath(new URL('./src/boot/antd-render-seam.ts', import.meta.url))
  let substituted = false
  let bundlesAntd = false
  return {
    name: 'antd-render-seam',
    enforce: 'pre',
    resolveId: (source, importer) => {
      // the app's own import of it (antdDirectImports names the module instead of the barrel)
      if (source === 'antd-mobile/es/utils/unstable-render') {
        substituted = true
        return seam
      }
      if (!importer || !/[\\/]antd-mobile[\\/]es[\\/]/.test(importer)) return null
      bundlesAntd = true
      if (!/^\.{1,2}\/(utils\/)?unstable-render(\.js)?$/.test(source)) return null
      substituted = true
      return seam
    },
    buildEnd(error) {
      if (!error && bundlesAntd && !substituted && this.environment?.name === 'client' && this.environment.mode === 'build') {
        this.error('antd-render-seam: antd-mobile/es/utils/unstable-render.js was never imported; check the antd-mobile upgrade')
      }
    },
  }
}

/**
 * Issue 12: the core's worker starts from index.html (src/boot/early-core.ts), in parallel with the entry's loading.
 * Its URL is the one worker asset that the chunk holding src/core/connect.ts names (the others are the worker's own
 * lazy chunks); a build where that is not exactly one file fails rather than shipping a page that starts no core early.
 */
const startCoreFromHtml = (): Plugin => {
  let base = '/'
  return {
    name: 'start-core-from-html',
    apply: 'build',
    configResolved: (config) => {
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        if (ctx.path !== '/index.html') return html
        const files = Object.values(ctx.bundle ?? {})
        const connect = files.find((c) => c.type === 'chunk' && c.moduleIds.some((id) => id.endsWith('/src/core/connect.ts')))
        const code = connect?.type === 'chunk' ? connect.code : ''
        const named = files.filter((a) => a.type === 'asset' && a.fileName.endsWith('.js') && code.includes(a.fileName))
        if (named.length !== 1) throw new Error(`start-core-from-html: expected one worker asset named by src/core/connect.ts, found ${named.length}`)
        const script = `<script>${earlyBootScript(base + named[0].fileName)}</script>`
        return html.replace(/<meta charset="UTF-8" \/>/i, (charset) => `${charset}\n    ${script}`)
      },
    },
  }
}

/** Issue 12: the boot screen is in index.html's #app, painted before the entry's JS has loaded (src/boot/boot-screen.ts). */
const bootScreenInHtml = (): Plugin => ({
  name: 'boot-screen-in-html',
  transformIndexHtml: (html) => html.replace('<div id="app"></div>', `<div id="app">${BOOT_SCREEN_HTML}</div>`),
})

/**
 * `vite preview` (the bench's server of the build) answers every file with `Cache-Control: no-cache`, so each reload
 * revalidated every chunk: ~60 conditional requests over 6 connections, the worker script queued behind them. The
 * reference server that ships the app caches hashed assets for a year (server/http/static-app.ts); so does the preview.
 */
const previewCachesLikeProduction = (): Plugin => ({
  name: 'preview-caches-like-production',
  configurePreviewServer: (server) => {
    server.middlewares.use((req, res, next) => {
      if (isHashedAsset(new URL(req.url ?? '/', 'http://preview').pathname)) {
        const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse
        res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) =>
          writeHead(status, { ...headers, 'Cache-Control': HASHED_ASSET_CACHE_CONTROL })) as typeof res.writeHead
      }
      next()
    })
  },
})

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`


export default defineConfig({
  base: '/cloud/phone/web/',
  plugins: [
    react(),
    antdDirectImports(),
    antdRenderSeam(),
    preloadScreensFromHtml(),
    inlineEntryCss(),
    startCoreFromHtml(),
    bootScreenInHtml(),
    previewCachesLikeProduction(),
    // Installable with an offline shell (issue 12): the manifest, and a service worker precaching index.html, every
    // chunk (screens and the core worker included) and the icons. `prompt`: a new version waits for the user.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['static/*.png'],
      manifest: {
        name: '云手机',
        short_name: '云手机',
        description: '云手机租用：查看、使用和续费你的云手机',
        lang: 'zh-CN',
        id: '/cloud/phone/web/',
        start_url: '/cloud/phone/web/',
        scope: '/cloud/phone/web/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#3c9cff',
        background_color: '#f5f6f8',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        // hashed assets straight from the precache, without the fetch handler (public/sw-static-routes.js)
        importScripts: ['sw-static-routes.js'],
      },
    }),
  ],
  resolve: {
    alias: [
      // TanStack's store reads useSyncExternalStore through the shim for React < 18; React 19 has it, and the package's
      // own non-shim entry uses it directly (same behaviour, 0.5 kB gzip less before login).
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
    ],
  },
  worker: {
    format: 'es',
    // Keeps the worker bundle small: a property read is taken as side-effect free (drops effect's unused tables:
    // BigDecimal, DateTime, Base64, ANSI colours; nothing here reads a getter for its effect), and a `Schema.*` call
    // as pure (drops contract schemas the worker never uses; building a schema has no side effect).
    rolldownOptions: { treeshake: { propertyReadSideEffects: false, manualPureFunctions: ['Schema'] } },
  },
  // Pre-bundled up front so a cold dev/test cache does not reload the page mid-run when the worker first imports them.
  optimizeDeps: {
    // The app's page is scanned too (Vite's default; the browser tests add their own files to this list): a test that
    // loads it in a frame (viewer-frame.test.ts) otherwise made Vite discover main.tsx's imports mid-run and reload
    // the test page running beside it.
    entries: ['index.html'],
    rolldownOptions: { plugins: [antdRenderSeam()] },
    include: [
      'effect/Clock', 'effect/Context', 'effect/Data', 'effect/Deferred', 'effect/Effect', 'effect/Exit', 'effect/Fiber', 'effect/FiberSet', 'effect/Layer',
      'effect/Option', 'effect/Result', 'effect/Schema', 'effect/SchemaTransformation', 'effect/Scope', 'idb', 'comlink',
      // the tab's decoder worker (the phone's picture): first imported when a test opens a stream
      '@yume-chan/scrcpy-decoder-webcodecs',
      // antd-mobile's locale (main.tsx, the kit's tests): discovered late on a cold cache, it reloaded a running test page
      'antd-mobile/es/locales/zh-CN',
      // the login crypto chunk: discovered late on a cold cache, it made Vite re-bundle and reload a running test page
      '@noble/hashes/legacy.js', '@noble/hashes/utils.js', 'node-forge/lib/forge', 'node-forge/lib/asn1', 'node-forge/lib/rsa',
      'node-forge/lib/util',
    ],
  },
  build: {
    outDir: 'dist', target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 800,
    rolldownOptions: { output: { codeSplitting: homeChunk() } },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      // the server takes websockets from pages of its own origin only (server/http/socket-origin.ts): the dev proxy,
      // a same-origin front for the app, says so (Host and Origin both name the target)
      '/api': { target: apiTarget, changeOrigin: true, ws: true, headers: { origin: apiTarget } },
      '/push': { target: apiTarget.replace('http', 'ws'), ws: true, changeOrigin: true, headers: { origin: apiTarget } },
    },
  },
  test: {
    // a committed .only fails the run in CI (vitest's default, stated; scripts/test.ts passes --allowOnly=false always)
    allowOnly: !process.env.CI,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'worker/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...scaleOutTests],
          // one migrated PGlite database each test server's data dir starts as a copy of (tests/support/test-database.ts)
          globalSetup: ['tests/support/pglite-global-setup.ts'],
          provide: { database: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-postgres',
          environment: 'node',
          include: [...serverTests, ...scaleOutTests],
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          provide: { database: 'postgres' },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.{ts,tsx}'],
          // the death-to-recovery figures are a measurement (20 real kills, about a minute), run only when asked
          exclude: process.env.VITE_DEATH_FIGURES === '1' ? [] : ['tests/browser/death-figures.test.ts'],
          globalSetup: ['tests/browser/global-setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
