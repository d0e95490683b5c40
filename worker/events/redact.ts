// Redaction of an exported event log (issue: a bug report must not carry tokens or phone numbers): any field named like
// a secret is replaced, and any mainland mobile number inside any string is masked.
import type { EventLogExport } from '../protocol/commands.ts'

const SECRET_KEYS = /^(token|authorization|password|code)$/i
const MOBILE = /1[3-9]\d{9}/g

const redact = (value: unknown): unknown => {
  if (typeof value === 'string') return value.replace(MOBILE, (m) => `${m.slice(0, 3)}****${m.slice(7)}`)
  if (Array.isArray(value)) return value.map(redact)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redact(v)]))
  }
  return value
}

export const redactExport = (log: EventLogExport): EventLogExport => redact(log) as EventLogExport
