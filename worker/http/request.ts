// Builds the HTTP request of a catalogue call (§7): URL under the API origin, the fixed headers, GET payload as a
// query string and any other payload as a JSON body (missing payload = {}).
import {
  API_PREFIX, HEADER_CLIENT, HEADER_MERCHANT_SIGN, HEADER_VERSION_NAME,
} from '../protocol/constants.ts'
import type { Endpoint } from '../protocol/endpoint.ts'
import { IDEMPOTENCY_ABANDON_HEADER, IDEMPOTENCY_KEY_HEADER } from '../protocol/idempotency.ts'

/** Appends an API path to the base, keeping any path the base carries (an API host under a prefix). */
export const joinApiPath = (apiBaseUrl: string, path: string): string => apiBaseUrl.replace(/\/+$/, '') + path

/** Fills `{key}` path segments (PUT notice/read/{id}) from the payload, URL-encoded; the key stays in the payload. */
export const fillPathTemplate = (path: string, payload: Record<string, unknown>): string =>
  path.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = payload[key]
    return value === undefined || value === null ? whole : encodeURIComponent(String(value))
  })

export interface RequestContext {
  readonly token: string | null
  readonly channelCode: string | null
  /** a keyed write's idempotency key (issue 40), and whether it asks the server to settle the key as not applied. */
  readonly key?: { readonly value: string; readonly abandon: boolean }
}

/**
 * Every API call bypasses the HTTP cache (`no-store`; the server's answers are no-store anyway): a GET that is still
 * on its way for a worker that died holds Chromium's cache lock on its URL until the server answers it, and the same
 * read replayed by the new worker (issue 21) waited behind it (measured: 4.5 s more, the dead request's whole wait).
 */
export const buildRequest = (
  apiBaseUrl: string, endpoint: Endpoint, payload: unknown, ctx: RequestContext,
): { url: string; init: RequestInit } => {
  const body = payload === undefined || payload === null ? {} : payload
  const headers: Record<string, string> = {
    client: HEADER_CLIENT,
    versionName: HEADER_VERSION_NAME,
    merchantSign: HEADER_MERCHANT_SIGN,
    ...endpoint.extraHeaders,
  }
  if (ctx.channelCode !== null && ctx.channelCode !== '') headers.channelCode = ctx.channelCode
  if (ctx.token !== null && ctx.token !== '') headers.Authorization = ctx.token
  if (ctx.key !== undefined) {
    headers[IDEMPOTENCY_KEY_HEADER] = ctx.key.value
    if (ctx.key.abandon) headers[IDEMPOTENCY_ABANDON_HEADER] = '1'
  }
  const url = new URL(joinApiPath(apiBaseUrl, API_PREFIX + fillPathTemplate(endpoint.path, body as Record<string, unknown>)))
  if (endpoint.method === 'GET') {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
    }
    return { url: url.toString(), init: { method: 'GET', headers, cache: 'no-store' } }
  }
  headers['Content-Type'] = 'application/json'
  return { url: url.toString(), init: { method: endpoint.method, headers, body: JSON.stringify(body), cache: 'no-store' } }
}
