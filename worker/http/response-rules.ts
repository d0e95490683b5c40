// The response rules of §7 and the error catalogue of §8 as one pure classification of an HTTP reply.
import * as Schema from 'effect/Schema'
import * as Option from 'effect/Option'
import {
  CODE_ELSEWHERE_LOGIN, CODE_LOGIN_EXPIRED, CODE_USER_CANCELLED, CODES_OTHER_CLIENT, SUCCESS_CODES,
} from '../protocol/constants.ts'
import type { Endpoint } from '../protocol/endpoint.ts'
import { core } from '../texts.ts'

export type Outcome =
  | { readonly kind: 'ok'; readonly data: unknown }
  /** ends the session: toast `text` (after the elsewhere delay when `delayed`), then the exit action. */
  | { readonly kind: 'fatal'; readonly status: number; readonly text: string; readonly delayed: boolean }
  /** a rejected call; `toast` when the server gave a message to show. */
  | { readonly kind: 'fail'; readonly status: number; readonly msg: string; readonly toast: boolean }
  /** a silent endpoint's failure: yields nothing. */
  | { readonly kind: 'silent'; readonly status: number }

/** HTTP status used in results for failures that never got a status (network error, timeout). */
export const TRANSPORT_FAILED = 0

type FatalRow = { readonly text: string; readonly delayed: boolean }
const FATAL_CODES = new Map<number, FatalRow>([
  [CODE_ELSEWHERE_LOGIN, { text: core.loggedInElsewhere, delayed: true }],
  [CODE_LOGIN_EXPIRED, { text: core.loginExpired, delayed: false }],
  ...CODES_OTHER_CLIENT.map((code): [number, FatalRow] => [code, { text: core.otherClientLogin, delayed: false }]),
  [CODE_USER_CANCELLED, { text: core.userCancelled, delayed: false }],
])

const isEmptyData = (data: unknown) => data === null || data === undefined || data === ''

const msgOf = (body: unknown): string | null => {
  const msg = typeof body === 'object' && body !== null ? (body as { msg?: unknown }).msg : undefined
  return typeof msg === 'string' && msg !== '' ? msg : null
}

export const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A reply that never arrived (network error, timeout). */
export const transportFailure = (endpoint: Endpoint): Outcome =>
  endpoint.silentFailure === true
    ? { kind: 'silent', status: TRANSPORT_FAILED }
    : { kind: 'fail', status: TRANSPORT_FAILED, msg: core.serverError, toast: false }

export const classifyResponse = (endpoint: Endpoint, httpStatus: number, body: unknown): Outcome => {
  if (httpStatus === 401) return { kind: 'fatal', status: 401, text: core.unauthorized, delayed: false }
  const silent = endpoint.silentFailure === true
  if (httpStatus !== 200) {
    return silent
      ? { kind: 'silent', status: httpStatus }
      : { kind: 'fail', status: httpStatus, msg: msgOf(body) ?? core.serverError, toast: false }
  }
  if (typeof body === 'number') return { kind: 'ok', data: body }
  const status = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined
  if (typeof status !== 'number') {
    return silent ? { kind: 'silent', status: httpStatus } : { kind: 'fail', status: httpStatus, msg: core.serverError, toast: false }
  }
  if (SUCCESS_CODES.includes(status)) {
    const data = (body as { data?: unknown }).data
    if (isEmptyData(data)) return { kind: 'ok', data: false }
    const decoded = Schema.decodeUnknownOption(endpoint.response as Schema.Codec<unknown, unknown>)(data)
    if (Option.isSome(decoded)) return { kind: 'ok', data: decoded.value }
    return silent ? { kind: 'silent', status } : { kind: 'fail', status, msg: core.serverError, toast: false }
  }
  if (silent) return { kind: 'silent', status }
  const fatal = FATAL_CODES.get(status)
  if (fatal !== undefined) return { kind: 'fatal', status, ...fatal }
  const msg = msgOf(body)
  return { kind: 'fail', status, msg: msg ?? core.serverError, toast: msg !== null }
}
