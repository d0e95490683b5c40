// Part 6: bytes a phone downloads (gzip and brotli, node zlib) before the login screen and before the home screen,
// the worker's, and every lazily loaded screen chunk, read from the production build's index.html and manifest.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { BenchContext } from '../lib/context.ts'
import { productBuild } from '../lib/product-build.ts'
import { check, type PartOutput } from '../lib/result.ts'

interface ManifestChunk {
  readonly file: string
  readonly src?: string
  readonly isEntry?: boolean
  readonly isDynamicEntry?: boolean
  readonly imports?: string[]
  readonly dynamicImports?: string[]
  readonly css?: string[]
}
type Manifest = Record<string, ManifestChunk>

interface Sizes { raw: number; gzip: number; brotli: number }

const sizeOf = (buf: Buffer): Sizes => ({
  raw: buf.length,
  gzip: gzipSync(buf, { level: 9 }).length,
  brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
})

const kb = (n: number): number => Math.round(n / 10.24) / 100

export const runBundle = async (ctx: BenchContext): Promise<PartOutput> => {
  ctx.log('bundle: production build of the app')
  const { outDir, base } = await productBuild()
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest
  const read = (file: string) => readFileSync(join(outDir, file))
  const sum = (files: Iterable<string>): Sizes & { files: number } => {
    const out = { raw: 0, gzip: 0, brotli: 0, files: 0 }
    for (const f of files) {
      const s = sizeOf(read(f))
      out.raw += s.raw; out.gzip += s.gzip; out.brotli += s.brotli; out.files++
    }
    return out
  }
  // what index.html makes the browser fetch: module scripts, modulepreloads, stylesheets
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const initial = new Set<string>()
  for (const m of html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)) initial.add(m[1].replace(base, '').replace(/^\//, ''))
  const byKey = (key: string) => manifest[key]
  const closure = (key: string, into: Set<string>): void => {
    const chunk = byKey(key)
    if (!chunk || into.has(chunk.file)) return
    into.add(chunk.file)
    for (const c of chunk.css ?? []) into.add(c)
    for (const i of chunk.imports ?? []) closure(i, into)
  }
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'))
  if (entryKey) closure(entryKey, initial)
  const screen = (pattern: RegExp) => Object.keys(manifest).find((k) => pattern.test(manifest[k].src ?? k))
  const withScreen = (pattern: RegExp): { files: Set<string>; key: string | undefined } => {
    const files = new Set(initial)
    const key = screen(pattern)
    if (key) closure(key, files)
    return { files, key }
  }
  const login = withScreen(/routes\/pages\/login\/login\.lazy\.tsx$/)
  const home = withScreen(/routes\/pages\/index\/index\.lazy\.tsx$/)
  const jsOnly = (files: Set<string>) => [...files].filter((f) => f.endsWith('.js'))
  const cssOnly = (files: Set<string>) => [...files].filter((f) => f.endsWith('.css'))
  // the worker is emitted outside the manifest: the asset that wires `onconnect`, plus the chunks it imports
  const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`)
  const workerEntry = assets.find((f) => /onconnect/.test(read(f).toString()) && !f.includes('index'))
  const worker = new Set<string>()
  const follow = (file: string): void => {
    if (worker.has(file)) return
    worker.add(file)
    for (const m of read(file).toString().matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) follow(`assets/${m[1]}`)
  }
  if (workerEntry) follow(workerEntry)
  // what the worker loads later: at start beside hydration (the boundary's decoders), on its first call (the
  // catalogue's schemas) or login (the password crypto)
  const workerLazy = new Set<string>()
  for (const file of worker) {
    for (const m of read(file).toString().matchAll(/import\(\s*[`"']\.\/([^`"']+\.js)[`"']\s*\)/g)) {
      const lazyFile = `assets/${m[1]}`
      if (!worker.has(lazyFile)) workerLazy.add(lazyFile)
    }
  }

  const row = (name: string, files: string[]) => {
    const s = sum(files)
    return { name, files: s.files, raw: s.raw, gzip: s.gzip, brotli: s.brotli }
  }
  const rows = [
    row('before login: JS', jsOnly(login.files)),
    row('before login: CSS', cssOnly(login.files)),
    row('before home: JS', jsOnly(home.files)),
    row('before home: CSS', cssOnly(home.files)),
    row('index.html alone: JS (entry + modulepreload)', jsOnly(initial)),
    row('worker (entry + its static chunks): runs before it holds its lifetime lock', [...worker]),
    row('worker, loaded later (at start, beside hydration: the boundary\'s decoders; first call: catalogue schemas; login: password crypto)', [...workerLazy]),
  ]
  const lazy = Object.values(manifest)
    .filter((c) => c.isDynamicEntry)
    .map((c) => ({ src: c.src ?? '?', file: c.file, ...sizeOf(read(c.file)) }))
    .sort((a, b) => a.src.localeCompare(b.src))
  const loginJs = rows[0]
  const workerRow = rows[5]
  return {
    tables: [
      {
        title: 'Bytes before a screen (JS and CSS it needs: index.html scripts, modulepreloads, the screen chunk and its static imports)',
        columns: ['what', 'files', 'raw kB', 'gzip kB', 'brotli kB'],
        rows: rows.map((r) => [r.name, r.files, kb(r.raw), kb(r.gzip), kb(r.brotli)]),
      },
      {
        title: `Lazily loaded chunks (${lazy.length})`,
        columns: ['source', 'file', 'raw kB', 'gzip kB', 'brotli kB'],
        rows: lazy.map((l) => [l.src, l.file, kb(l.raw), kb(l.gzip), kb(l.brotli)]),
      },
    ],
    targets: [
      check('initial JS before login, gzip', '<= 150 kB', kb(loginJs.gzip), 'kB', (v) => v <= 150),
      check('worker JS, gzip', '<= 40 kB', workerEntry ? kb(workerRow.gzip) : null, 'kB', (v) => v <= 40),
    ],
    product: 'real',
    notes: [
      'kB = 1024 bytes; gzip level 9 and brotli quality 11 per file, summed (a server compressing on the fly may do a little worse).',
      `Login screen chunk: ${login.key ?? 'not found in the manifest (counted without it)'}; home screen chunk: ${home.key ?? 'not found (counted without it)'}.`,
      `Worker entry: ${workerEntry ?? 'not found'}; chunks: ${[...worker].join(', ') || '-'}; loaded later: ${[...workerLazy].join(', ') || '-'}.`,
    ],
    data: { rows, lazy, worker: [...worker], workerLazy: [...workerLazy] },
  }
}
