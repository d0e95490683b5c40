// Push socket frames (§4 "Push messages", §7 "push connection"): {type, data} both ways.
// The worker decodes frames by hand on the hot path (worker/push/push-frame.ts); a property test holds that decoder
// to these schemas on generated frames (tests/unit/worker/push-frame.test.ts).
import * as Schema from 'effect/Schema'
import { PUSH_TYPES } from './push-wire.ts'

export const PushType = Schema.Literals(PUSH_TYPES)
export type PushType = typeof PushType.Type

export const PushData = Schema.Struct({
  content: Schema.optional(Schema.String),
  userCardId: Schema.optional(Schema.Union([Schema.Number, Schema.String])),
  diskName: Schema.optional(Schema.String),
})
export type PushData = typeof PushData.Type

/** A server -> client message. Frames that do not decode are dropped (and counted), never thrown. */
export const PushMessage = Schema.Struct({
  type: PushType,
  data: Schema.optional(Schema.NullOr(PushData)),
})
export type PushMessage = typeof PushMessage.Type

/** The client's heartbeat frame (push-wire.ts writes it); the server answers with the same type, whatever its data. */
export const KeepAlive = Schema.Struct({ type: Schema.Literal('keepAlive'), data: Schema.optional(Schema.Unknown) })

/** Query the socket authenticates from (§7). */
export interface PushQuery {
  readonly deviceId: string
  readonly username: string
  readonly Authorization: string
}
