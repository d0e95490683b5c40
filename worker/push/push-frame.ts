// Decodes a push frame by hand (the hot path; no schema machinery): a known type and an object (or absent) data.
// It accepts exactly what the PushMessage schema accepts (tests/unit/worker/push-frame.test.ts checks it on
// generated frames), so the schema stays the one declaration of the frame.
import type { PushMessage, PushType } from '../protocol/push.ts'
import { PUSH_TYPES as TYPES } from '../protocol/push-wire.ts'

const PUSH_TYPES: ReadonlySet<string> = new Set<string>(TYPES)

export type DecodedFrame = { readonly kind: 'message'; readonly message: PushMessage } | { readonly kind: 'keepAlive' } | { readonly kind: 'malformed' }

const optionalString = (v: unknown) => v === undefined || typeof v === 'string'

export const decodePushFrame = (raw: unknown): DecodedFrame => {
  if (typeof raw !== 'string') return { kind: 'malformed' }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { kind: 'malformed' }
  }
  if (typeof parsed !== 'object' || parsed === null) return { kind: 'malformed' }
  const { type, data } = parsed as { type?: unknown; data?: unknown }
  if (type === 'keepAlive') return { kind: 'keepAlive' }
  if (typeof type !== 'string' || !PUSH_TYPES.has(type)) return { kind: 'malformed' }
  if (data === undefined || data === null) return { kind: 'message', message: { type: type as PushType, data: null } }
  if (typeof data !== 'object' || Array.isArray(data)) return { kind: 'malformed' }
  const d = data as Record<string, unknown>
  const cardOk = d.userCardId === undefined || typeof d.userCardId === 'number' || typeof d.userCardId === 'string'
  if (!optionalString(d.content) || !optionalString(d.diskName) || !cardOk) return { kind: 'malformed' }
  // only the known fields, and only those present (built by assignment: spreads cost an object each, per frame)
  const out: { content?: string; userCardId?: number | string; diskName?: string } = {}
  if (d.content !== undefined) out.content = d.content as string
  if (d.userCardId !== undefined) out.userCardId = d.userCardId as number | string
  if (d.diskName !== undefined) out.diskName = d.diskName as string
  return { kind: 'message', message: { type: type as PushType, data: out } }
}
