// An HTTP endpoint of the catalogue: path, method, request and response (the `data` of the envelope) schemas.
import * as Schema from 'effect/Schema'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Endpoint<Req extends Schema.Top = Schema.Top, Res extends Schema.Top = Schema.Top> {
  readonly name: string
  readonly method: Method
  readonly path: string
  readonly request: Req
  readonly response: Res
  /**
   * Safe to send again (issue 21): a read, or a write whose repetition ends in the same state (read marks, a PUT of the
   * same fields). A call of a repeatable endpoint in flight when the core's worker dies is sent again to the new worker
   * and answered as if nothing happened; any other call that may have reached the server is answered with the
   * "outcome unknown" failure instead (src/core/connect.ts). Required, so every endpoint of the catalogue decides.
   */
  readonly repeatable: boolean
  /**
   * A non-repeatable write applied once per idempotency key (issue 40, ./idempotency.ts): the core sends it with a key,
   * sends it again with the same key after a lost answer or a worker's death, and the server answers a repeat with the
   * outcome it stored. Every endpoint that is not repeatable declares it.
   */
  readonly idempotent?: true
  /** §7: a failed response is not an error and yields nothing (connect, visit log, stat). */
  readonly silentFailure?: boolean
  /** Extra headers this call sends (the visit-log `versions`). */
  readonly extraHeaders?: Readonly<Record<string, string>>
  /** the host the path is on: the API (default) or the maintenance host (§7, the core's maintenanceBaseUrl). */
  readonly host?: 'api' | 'maintenance'
}

export const endpoint = <Req extends Schema.Top, Res extends Schema.Top>(e: Endpoint<Req, Res>): Endpoint<Req, Res> => e

/** Request schema for calls that take no payload (§7: a missing payload defaults to {}). */
export const NoPayload = Schema.Struct({})

export type RequestOf<E> = E extends Endpoint<infer Req, any> ? Req['Type'] : never
export type ResponseOf<E> = E extends Endpoint<any, infer Res> ? Res['Type'] : never
