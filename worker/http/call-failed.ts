// How a call fails inside the core: one tagged error, turned into a plain CallResult only at the tab boundary.
import * as Schema from 'effect/Schema'

export class CallFailed extends Schema.TaggedError<CallFailed>()('CallFailed', {
  /** HTTP status, body status, or 0 when no reply arrived (network, timeout) or the session ended meanwhile. */
  status: Schema.Number,
  msg: Schema.String,
  /** nothing to show: a silent endpoint (§7), or a result dropped because its session ended. */
  silent: Schema.Boolean,
}) {}
