// How a call fails inside the core: one tagged error, turned into a plain CallResult only at the tab boundary. A
// Data.TaggedError, not a Schema one: it is never encoded (toCallResult maps it), and Schema must stay out of the
// code the worker runs before its first call (http/wire.ts).
import * as Data from 'effect/Data'

export class CallFailed extends Data.TaggedError('CallFailed')<{
  /** HTTP status, body status, or 0 when no reply arrived (network, timeout) or the session ended meanwhile. */
  readonly status: number
  readonly msg: string
  /** nothing to show: a silent endpoint (§7), or a result dropped because its session ended. */
  readonly silent: boolean
}> {}
