// Reads a request's payload: the JSON body for POST/PUT, the query string for GET/DELETE with values coerced to the
// types the endpoint's request schema expects (numbers, booleans), since a query string only carries text.
import type { Context } from 'hono'
import type * as Schema from 'effect/Schema'
import type { Method } from '../../worker/protocol/endpoint.ts'
import { DomainError, Status } from './errors.ts'

type Kind = 'number' | 'boolean' | 'other'

const kindsOf = (ast: any): Set<Kind> => {
  const kinds = new Set<Kind>()
  const visit = (node: any): void => {
    if (!node) return
    if (node._tag === 'Union') return node.types.forEach(visit)
    if (node._tag === 'Number') kinds.add('number')
    else if (node._tag === 'Boolean') kinds.add('boolean')
    else if (node._tag === 'Literal' && typeof node.literal === 'number') kinds.add('number')
    else if (node._tag === 'Literal' && typeof node.literal === 'boolean') kinds.add('boolean')
    else if (node._tag !== 'Undefined') kinds.add('other')
  }
  visit(ast)
  return kinds
}

const coerce = (value: string, kinds: Set<Kind>): unknown => {
  if (kinds.has('other')) return value
  if (kinds.has('number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  if (kinds.has('boolean') && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

/** Query parameters as an object whose values have the request schema's scalar types where they parse. */
export const queryPayload = (query: Record<string, string>, request: Schema.Top): Record<string, unknown> => {
  const ast: any = request.ast
  const fields = new Map<string, any>(
    ast?._tag === 'Objects' ? ast.propertySignatures.map((p: any) => [String(p.name), p.type]) : [],
  )
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    const type = fields.get(key)
    out[key] = type ? coerce(value, kindsOf(type)) : value
  }
  return out
}

const hasBody = (method: Method): boolean => method === 'POST' || method === 'PUT'

/** The raw (not yet validated) payload; a missing payload is `{}` (§7). */
export const readPayload = async (c: Context, method: Method, request: Schema.Top): Promise<unknown> => {
  if (!hasBody(method)) return queryPayload(c.req.query(), request)
  const text = await c.req.text()
  if (text.trim() === '') return {}
  try {
    const body = JSON.parse(text)
    return body ?? {}
  } catch {
    throw new DomainError(Status.invalidPayload, '请求体不是有效的JSON')
  }
}
