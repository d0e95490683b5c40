// What /preview-image may show (issue 22 finding 14): only images of the app's own origin (its files and the reference
// server's file host, `{origin}/api`), by path or absolute URL. Any other site's image, shown inside the app's chrome,
// would pass for the app's own (a fake payment QR code), so it is refused like the ad view refuses a link's own ?url=.

import { isHttpProtocol } from '../../worker/protocol/domain.ts'

/** The same-origin image URL `value` names, absolute, or null (another origin, another scheme, malformed). */
export const sameOriginImageUrl = (value: string, origin: string): string | null => {
  const trimmed = value.trim()
  // a path on this origin or an absolute http(s) URL; nothing else is resolved (no `javascript:`, no bare names)
  if (!trimmed.startsWith('/') && !/^https?:\/\//i.test(trimmed)) return null
  try {
    const url = new URL(trimmed, origin)
    // `//evil.example/x` and `/\evil.example/x` resolve to another origin and are refused here
    return isHttpProtocol(url.protocol) && url.origin === origin ? url.href : null
  } catch {
    return null
  }
}

/** The images of the page's `urls` (comma separated) or `url` query that it may show. */
export const previewImageUrls = (search: { readonly url?: string | undefined; readonly urls?: string | undefined }, origin: string): string[] =>
  (search.urls ?? search.url ?? '').split(',').flatMap((u) => {
    const safe = sameOriginImageUrl(u, origin)
    return safe ? [safe] : []
  })
