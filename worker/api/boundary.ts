// The boundary's decoders: a command's arguments (worker/protocol/commands.ts) and the persisted projection
// (worker/protocol/shared-state.ts), checked with their schemas. Loaded right after the worker's entry starts, not in
// it: the contract's schemas and Effect Schema's parser are a third of the worker's code, and the worker must hold its
// lifetime lock and answer `lifeLock` before any of it has arrived (loadBoundary below).
import * as Option from 'effect/Option'
import * as Result from 'effect/Result'
import * as Schema from 'effect/Schema'
import { commands, type CommandName } from '../protocol/commands.ts'
import { PersistedState as PersistedStateSchema } from '../protocol/shared-state.ts'
import type { PersistedState } from '../storage/storage.ts'

const decoders = new Map<CommandName, (args: unknown) => Result.Result<ReadonlyArray<unknown>, Schema.SchemaError>>()

/** A command's arguments decoded with its request schema: the decoded tuple, or why it is refused. */
export const decodeCommand = (name: CommandName, args: ReadonlyArray<unknown>): { ok: true; args: ReadonlyArray<unknown> } | { ok: false; reason: string } => {
  let decode = decoders.get(name)
  if (decode === undefined) {
    decode = Schema.decodeUnknownResult(commands[name].request as Schema.Codec<ReadonlyArray<unknown>, unknown>)
    decoders.set(name, decode)
  }
  const decoded = decode(args)
  return Result.isSuccess(decoded) ? { ok: true, args: decoded.success } : { ok: false, reason: decoded.failure.message }
}

const decodePersisted = Schema.decodeUnknownOption(PersistedStateSchema)

/**
 * The persisted projection, decoded: what IndexedDB hands back was written by some earlier version of this code (or
 * damaged), so it is checked against the contract's SharedState before anything is folded onto it; one that does
 * not decode is not used (the worker starts as if nothing had been persisted, and the network fills the state in).
 */
export const readPersisted = (stored: unknown): PersistedState | null => Option.getOrNull(decodePersisted(stored))
