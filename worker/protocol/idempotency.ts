// Idempotency keys (issue 40): how a non-repeatable write is applied once however often it is sent. The one home of the
// header names, the key's shape and the times; the core sends them (worker/http/keyed-write.ts), the reference server
// honours them (server/http/idempotency.ts).
//
// Every endpoint of the catalogue that is not `repeatable` is `idempotent` (tests/unit/worker/idempotency-contract
// fails otherwise). Its call carries `Idempotency-Key: <key>`; the server stores (user, key) -> the envelope it
// answered, in the write's own transaction, and answers any repeat of the key with that envelope (refusals included).
// `Idempotency-Abandon: 1` with a key asks the server to settle it as "not applied" unless it was applied already: the
// answer is then either the stored outcome or NOT_APPLIED, and a late copy of the write can never apply it.

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
export const IDEMPOTENCY_ABANDON_HEADER = 'Idempotency-Abandon'

/** 16-64 URL-safe characters: the core's keys are 32 hex digits (a random UUID without dashes). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

/** How long the server keeps a key's outcome (Stripe keeps 24 h); purged after. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 10 * 60 * 1000

/** The envelope status of a write the server settled as never applied (abandoned before it arrived). */
export const NOT_APPLIED_STATUS = 4090
export const NOT_APPLIED_MSG = '网络异常，操作未执行，请重试'
/** A key sent again for a different endpoint than it was first used for. */
export const KEY_REUSED_STATUS = 4091
export const KEY_REUSED_MSG = '请求重复，请刷新后重试'
export const KEY_INVALID_MSG = '请求无效，请刷新后重试'

/**
 * How long the core keeps sending a write whose answer did not come (no connection, a cut answer, 5xx, the 60 s
 * timeout), with the same key: past it, the write is abandoned (settled "not applied" unless it already was).
 */
export const WRITE_WINDOW_MS = 60_000
/** Pauses between the sends of one write (the last repeats until the window closes). */
export const WRITE_RETRY_MS = [500, 1_000, 2_000, 5_000, 10_000] as const

export const newIdempotencyKey = (): string => crypto.randomUUID().replaceAll('-', '')
