// Serves the built app (dist/) under the base path: index.html for the base path, content types, long cache for
// hashed assets, gzip for text when accepted, the app's Content-Security-Policy and Referrer-Policy. Paths that escape
// the app folder are refused.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'
import { gzipSync } from 'node:zlib'
import { BASE_PATH } from '../../worker/protocol/constants.ts'
import type { App } from '../context.ts'
import { appContentSecurityPolicy, inlineScriptHashes, inlineStyleHashes } from './content-security.ts'
import { REFERRER_POLICY } from './security-headers.ts'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

export const contentTypeOf = (file: string): string => CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'

const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|javascript)|image\/svg)/

/** Vite names built chunks `name-<hash>.ext`; those never change and may be cached for a year. */
export const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable'
export const isHashedAsset = (relPath: string): boolean => /(^|\/)assets\//.test(relPath) || /[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(relPath)

interface CachedFile {
  mtimeMs: number
  body: Buffer
  gzip: Buffer | null
  /** the policy this file is served with (an HTML file's names its own inline scripts). */
  csp: string
}

export const serveApp = (app: App, appDir: string): void => {
  const root = normalize(appDir + sep)
  const cache = new Map<string, CachedFile>()

  const load = (file: string): CachedFile | null => {
    if (!existsSync(file)) return null
    const stat = statSync(file)
    if (!stat.isFile()) return null
    const hit = cache.get(file)
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit
    const body = readFileSync(file)
    const gzip = COMPRESSIBLE.test(contentTypeOf(file)) && body.length > 1024 ? gzipSync(body, { level: 9 }) : null
    const html = file.endsWith('.html') ? body.toString('utf8') : ''
    const csp = appContentSecurityPolicy(inlineScriptHashes(html), inlineStyleHashes(html))
    const entry = { mtimeMs: stat.mtimeMs, body, gzip, csp }
    cache.set(file, entry)
    return entry
  }

  app.get('/', (c) => c.redirect(BASE_PATH, 302))
  app.get(BASE_PATH.slice(0, -1), (c) => c.redirect(BASE_PATH, 302))

  app.get(`${BASE_PATH}*`, (c) => {
    let rel: string
    try {
      rel = decodeURIComponent(c.req.path.slice(BASE_PATH.length))
    } catch {
      return c.text('Bad Request', 400)
    }
    if (rel === '' || rel.endsWith('/')) rel += 'index.html'
    const file = normalize(join(root, rel))
    if (!file.startsWith(root)) return c.text('Not Found', 404)
    let entry = load(file)
    let served = rel
    // Hash routing means the app itself is only index.html; extension-less paths fall back to it.
    if (!entry && extname(rel) === '') {
      entry = load(join(root, 'index.html'))
      served = 'index.html'
    }
    if (!entry) return c.text('Not Found', 404)
    const headers: Record<string, string> = {
      'Content-Type': contentTypeOf(served),
      'Cache-Control': served.endsWith('.html') ? 'no-cache' : isHashedAsset(served) ? HASHED_ASSET_CACHE_CONTROL : 'public, max-age=3600',
      'Cross-Origin-Resource-Policy': 'same-origin',
      // the app's address never goes to another origin (an ad, an image host) as a Referer
      'Referrer-Policy': REFERRER_POLICY,
      // on scripts too: a worker (the core, the service worker) runs under the policy of its own script
      'Content-Security-Policy': entry.csp,
      Vary: 'Accept-Encoding',
    }
    const acceptsGzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')
    if (entry.gzip && acceptsGzip) {
      headers['Content-Encoding'] = 'gzip'
      return c.body(new Uint8Array(entry.gzip), 200, headers)
    }
    return c.body(new Uint8Array(entry.body), 200, headers)
  })
}
