// The part of the HTTP pipeline that needs the catalogue's schemas: which endpoint a name is, and how its reply is
// classified and decoded (§7, §8). Loaded on the core's first call, so that the worker can start, hydrate and serve
// its tabs a snapshot without parsing Effect Schema and every endpoint's schema first (half of the worker's code).
import * as Result from 'effect/Result'
import * as Schema from 'effect/Schema'
import { catalogue } from '../protocol/catalogue.ts'
import type { Endpoint } from '../protocol/endpoint.ts'

export { classifyResponse, parseBody, transportFailure, type Outcome } from './response-rules.ts'

/** the endpoint of a name, checked: a name from a tab comes from another thread, not trusted code. */
export const endpointOf = (name: string): Endpoint | undefined =>
  Object.hasOwn(catalogue, name) ? (catalogue as Record<string, Endpoint>)[name] : undefined

/** A tab's payload for `name`, decoded with the endpoint's request schema (the same the server decodes it with). */
export const decodePayload = (name: string, payload: unknown): { ok: true; payload: unknown } | { ok: false; reason: string } => {
  const endpoint = endpointOf(name)
  if (endpoint === undefined) return { ok: false, reason: 'not an endpoint of the catalogue' }
  const result = Schema.decodeUnknownResult(endpoint.request as Schema.Codec<unknown, unknown>)(payload)
  return Result.isSuccess(result) ? { ok: true, payload: result.success } : { ok: false, reason: result.failure.message }
}
