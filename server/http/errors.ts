// Domain errors a handler throws; the route helper turns them into an envelope with a non-zero status and Chinese msg.
import { CONNECT_RETRY_CODE } from '../../worker/protocol/constants.ts'

export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly data: unknown = null,
  ) {
    super(msg)
  }
}

/** Status codes of the reference server (§7, §8, api-notes; the rest are ours). */
export const Status = {
  ok: 0,
  invalidPayload: 1001,
  badCredentials: 1002,
  notFound: 1004,
  forbidden: 1003,
  accountDeleted: 2101,
  deviceExpired: 1005,
  deviceStarting: CONNECT_RETRY_CODE,
  serverError: 500,
} as const

export const notFound = (what: string): DomainError => new DomainError(Status.notFound, `${what}不存在`)
export const forbidden = (msg = '无权操作'): DomainError => new DomainError(Status.forbidden, msg)
