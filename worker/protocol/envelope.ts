// The backend's response envelope {status, success, msg, data} (api-notes "Envelope").
import * as Schema from 'effect/Schema'

export const Envelope = Schema.Struct({
  status: Schema.Number,
  success: Schema.optional(Schema.Boolean),
  msg: Schema.optional(Schema.NullOr(Schema.String)),
  data: Schema.optional(Schema.Unknown),
})
export type Envelope = typeof Envelope.Type

/** Builds an envelope value (used by the server and by tests). */
export const envelope = <A>(status: number, data: A, msg = ''): { status: number; success: boolean; msg: string; data: A } => ({
  status,
  success: status === 0,
  msg,
  data,
})
