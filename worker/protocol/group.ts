// Group control (群控, issue 23): one command on many phones, with a result per phone. The command's id is made by the
// client (a UUID) and the server applies it at most once per (command id, phone) (server/devices/group.ts), so the
// core may send the same command again after a killed worker, a dropped connection or a server restart and get the
// same per-phone answers back; the core keeps the ledger (worker/group/group-ledger.ts, projection slice `group`).
import * as Schema from 'effect/Schema'
import { endpoint } from './endpoint.ts'
import { Id, ListOf } from './limits.ts'

import { GROUP_ACTIONS, GROUP_COMMAND_ID, GROUP_TEXT_MAX } from './group-rules.ts'

export { GROUP_ACTIONS, GROUP_COMMAND_ID, GROUP_LEDGER_KEEP, GROUP_TEXT_MAX, type GroupAction } from './group-rules.ts'

export const GroupCommandRequest = Schema.Struct({
  commandId: Schema.String.check(Schema.isMaxLength(36), Schema.isPattern(GROUP_COMMAND_ID)),
  action: Schema.Literals(GROUP_ACTIONS),
  /** the chosen phones; more than the account's maximum (MAX_DEVICES_PER_ACCOUNT) is refused by the server, with its reason. */
  userCardIds: ListOf(Id, 100),
  /** text / clipboard: what is sent. */
  text: Schema.optional(Schema.String.check(Schema.isMaxLength(GROUP_TEXT_MAX))),
  /** file: a file the caller uploaded to one of its phones (the viewer's upload path), copied to every chosen phone. */
  fileId: Schema.optional(Id),
})
export type GroupCommandRequest = typeof GroupCommandRequest.Type

/** One phone's outcome: ok, or the refusal's status and Chinese reason; `ms` is how long applying it took. */
export const GroupPhoneResult = Schema.Struct({
  userCardId: Schema.Number,
  diskName: Schema.String,
  ok: Schema.Boolean,
  status: Schema.Number,
  msg: Schema.String,
  ms: Schema.Number,
})
export type GroupPhoneResult = typeof GroupPhoneResult.Type

export const GroupCommandResponse = Schema.Struct({
  commandId: Schema.String,
  results: Schema.Array(GroupPhoneResult),
})
export type GroupCommandResponse = typeof GroupCommandResponse.Type

export const groupEndpoints = {
  /** ours: a group command; sending it again with the same commandId applies it to no phone twice (repeatable). */
  groupCommand: endpoint({
    name: 'groupCommand', method: 'POST', repeatable: true, path: '/api/resources/card/group/command',
    request: GroupCommandRequest, response: GroupCommandResponse,
  }),
} as const
