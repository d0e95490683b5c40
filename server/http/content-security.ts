// The Content-Security-Policy of the app's own files (issue 11 finding 8), checked against every screen in the
// browser (tests/e2e/17-content-security.e2e.ts). Scripts and styles: our own files and the inline scripts and
// <style> elements of index.html, by hash (computed from the file served, so a rebuilt index.html keeps working).
// Connections (the API, /push): our origin only. Frames: the ad view and the service's viewer page take http(s) pages
// of other hosts, sandboxed by the screens. Images: any http(s) host (ads, phone-type icons, the service's previews),
// data: (the pay QR code) and blob:. Nothing may frame the app, plug-ins and <base> are off.
import { createHash } from 'node:crypto'

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi
const INLINE_STYLE = /<style[^>]*>([\s\S]*?)<\/style>/gi

const hashesOf = (html: string, element: RegExp): string[] =>
  [...html.matchAll(element)].map((m) => `'sha256-${createHash('sha256').update(m[1] ?? '', 'utf8').digest('base64')}'`)

/** 'sha256-…' sources for the inline scripts of an HTML document. */
export const inlineScriptHashes = (html: string): string[] => hashesOf(html, INLINE_SCRIPT)

/** 'sha256-…' sources for the <style> elements of an HTML document (index.html carries the entry's CSS, issue 12). */
export const inlineStyleHashes = (html: string): string[] => hashesOf(html, INLINE_STYLE)

const sources = (hashes: ReadonlyArray<string>): string => hashes.map((h) => ` ${h}`).join('')

export const appContentSecurityPolicy = (scriptHashes: ReadonlyArray<string> = [], styleHashes: ReadonlyArray<string> = []): string => [
  "default-src 'self'",
  `script-src 'self'${sources(scriptHashes)}`,
  `style-src 'self'${sources(styleHashes)}`,
  "img-src 'self' data: blob: http: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-src 'self' http: https:",
  "manifest-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')
