// The tab's half of the replay rule (issue 21), pure so the delivery model runs it (tests/unit/delivery): what becomes
// of a command that went out on a link whose worker then died. The command's own rule is worker/protocol/on-death.ts;
// which endpoints `call` may repeat, and which fail silently, the worker told on attach (Attached).
import { COMMAND_ON_DEATH, REPLY_COMMANDS, type OnDeath } from '../../worker/protocol/on-death.ts'
import type { Reply } from '../../worker/protocol/commands.ts'
import { zhCN } from '../i18n/zh-CN.ts'

export interface ReplayRule {
  readonly repeatable: ReadonlySet<string>
  readonly silent: ReadonlySet<string>
  /** keyed writes (issue 40): a call of one that carries its idempotency key is sent again like a repeatable one. */
  readonly keyed: ReadonlySet<string>
}
export const noReplayRule: ReplayRule = { repeatable: new Set(), silent: new Set(), keyed: new Set() }

/** `call(name, payload, key)`: the key the tab made for this call (withCallKey), if any. */
const keyOf = (args: ReadonlyArray<unknown>): unknown => args[2]

/** A call's arguments with a fresh idempotency key: every copy of this call (its replays) carries the same one. */
export const withCallKey = (args: ReadonlyArray<unknown>, key: string): Array<unknown> => [args[0], args[1] ?? {}, key]

/** A replayable command is sent at most this many times more (workers dying over and over): then it is interrupted. */
export const MAX_REPLAYS = 3

// A settled command caused no event this tab could wait for: its answer's seq is 0 (CoreClient.reached(0) is at once).
/** Given up after MAX_REPLAYS deaths (or the tab closed): nothing was done that the customer must check. */
export const interrupted: Reply<never> = { ok: false, status: 0, msg: zhCN.app.coreRestarted, silent: false, seq: 0 }
/** A change that may or may not have reached the server when the worker died. */
export const outcomeUnknown = (silent: boolean): Reply<never> => ({ ok: false, status: 0, msg: zhCN.app.outcomeUnknown, silent, seq: 0 })

export const onDeathOf = (prop: string, args: ReadonlyArray<unknown>, rule: ReplayRule): OnDeath => {
  const own = (COMMAND_ON_DEATH as Record<string, OnDeath | undefined>)[prop] ?? 'drop'
  if (own !== 'call') return own
  const name = args[0] as string
  return rule.repeatable.has(name) || (rule.keyed.has(name) && typeof keyOf(args) === 'string') ? 'replay' : 'unknown'
}

/** The answer of a command that is not (or no longer) sent again. */
export const settledAnswer = (prop: string, args: ReadonlyArray<unknown>, how: OnDeath, rule: ReplayRule): unknown => {
  if (how === 'unknown') return outcomeUnknown(prop === 'call' && rule.silent.has(args[0] as string))
  // a command whose answer is a Reply answers with a clear failure, never `undefined`
  return REPLY_COMMANDS.has(prop) ? interrupted : undefined
}

export type AfterDeath = { readonly replay: true } | { readonly replay: false; readonly answer: unknown }

/**
 * A command that went out on a link whose worker died (it may have reached the worker and the server), already sent
 * again `replays` times: sent again on the next link, or answered now.
 */
export const afterDeath = (prop: string, args: ReadonlyArray<unknown>, rule: ReplayRule, replays: number, closed: boolean): AfterDeath => {
  const how = onDeathOf(prop, args, rule)
  if (how === 'replay' && !closed && replays < MAX_REPLAYS) return { replay: true }
  // a keyed write given up may have been applied: never "try again" (a new key), the next core finishes it (issue 40)
  if (how === 'replay' && prop === 'call' && rule.keyed.has(args[0] as string)) return { replay: false, answer: outcomeUnknown(rule.silent.has(args[0] as string)) }
  return { replay: false, answer: settledAnswer(prop, args, how, rule) }
}
