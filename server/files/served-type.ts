// How a phone file is served back (issue 41 finding 7). Its bytes and Content-Type came from whoever uploaded it, and it
// is served from the app's own origin: only types a browser shows without running anything keep their type, an .apk is
// the Android package it is, anything else is opaque bytes; every answer is sandboxed (no script runs as the app's
// origin even if a browser renders it) and only an image is shown inline.
import { isApk } from '../../worker/protocol/files.ts'

export const APK_TYPE = 'application/vnd.android.package-archive'
export const OPAQUE_TYPE = 'application/octet-stream'

/** Shown inline (no script in any of them: image/svg+xml is not here). */
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp'])
/** Kept, but downloaded as attachments. */
const OTHERS = new Set(['video/mp4', 'video/webm', 'video/quicktime', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/wav', 'application/pdf', 'application/zip', 'text/plain'])

export interface ServedType {
  readonly contentType: string
  readonly inline: boolean
}

/** The type the file is served as, from its name and the type its uploader gave (parameters dropped). */
export const servedType = (name: string, uploaded: string): ServedType => {
  if (isApk(name)) return { contentType: APK_TYPE, inline: false }
  const type = uploaded.split(';')[0]!.trim().toLowerCase()
  if (IMAGES.has(type)) return { contentType: type, inline: true }
  // text is served as UTF-8 whatever the uploader said: no charset guessing
  if (type === 'text/plain') return { contentType: 'text/plain; charset=utf-8', inline: false }
  if (OTHERS.has(type)) return { contentType: type, inline: false }
  return { contentType: OPAQUE_TYPE, inline: false }
}

/** What every phone-file answer carries beside its type: no script, no sniffing, no framing by another origin. */
export const PHONE_FILE_SANDBOX = 'sandbox'
