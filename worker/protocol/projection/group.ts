// Group slice: the ledger of group-control commands (issue 23), newest first, at most GROUP_LEDGER_KEEP. Every tab folds
// the same events, so every tab renders the same result grid; the core persists it with the projection and sends a
// command whose phones are not all answered again when it starts (worker/group/group-ledger.ts).
import type { CoreEvent, GroupCommand } from '../events.ts'
import type { GroupPhoneResult } from '../group.ts'
import { GROUP_LEDGER_KEEP } from '../group-rules.ts'

export interface GroupCommandRecord {
  readonly command: GroupCommand
  /** the server's answers so far, one per phone (by userCardId). */
  readonly results: ReadonlyArray<GroupPhoneResult>
  /** the server refused the whole command: every phone failed with this. */
  readonly refused: { readonly status: number; readonly msg: string } | null
  readonly answeredAt: number | null
}

export interface GroupSlice {
  readonly commands: ReadonlyArray<GroupCommandRecord>
}

export const initialGroup: GroupSlice = { commands: [] }

/** One phone's line in the grid: ✓, ✗ with the reason, or 等待中. */
export type PhoneOutcome =
  | { readonly kind: 'ok'; readonly ms: number }
  | { readonly kind: 'failed'; readonly status: number; readonly msg: string }
  | { readonly kind: 'pending' }

export const outcomeOf = (record: GroupCommandRecord, userCardId: number): PhoneOutcome => {
  const r = record.results.find((x) => x.userCardId === userCardId)
  if (r) return r.ok ? { kind: 'ok', ms: r.ms } : { kind: 'failed', status: r.status, msg: r.msg }
  if (record.refused) return { kind: 'failed', status: record.refused.status, msg: record.refused.msg }
  return { kind: 'pending' }
}

/** phones without an answer yet: the command is (still) to be sent for them. */
export const pendingPhones = (record: GroupCommandRecord): ReadonlyArray<number> =>
  record.refused ? [] : record.command.phones.map((p) => p.userCardId).filter((id) => !record.results.some((r) => r.userCardId === id))

export const failedPhones = (record: GroupCommandRecord): ReadonlyArray<number> =>
  record.command.phones.map((p) => p.userCardId).filter((id) => outcomeOf(record, id).kind === 'failed')

const update = (state: GroupSlice, id: string, f: (r: GroupCommandRecord) => GroupCommandRecord): GroupSlice => {
  const i = state.commands.findIndex((r) => r.command.id === id)
  if (i < 0) return state
  const commands = state.commands.slice()
  commands[i] = f(commands[i]!)
  return { commands }
}

export const reduceGroup = (state: GroupSlice, event: CoreEvent): GroupSlice => {
  switch (event._tag) {
    case 'GroupCommandIssued':
      if (state.commands.some((r) => r.command.id === event.command.id)) return state
      return { commands: [{ command: event.command, results: [], refused: null, answeredAt: null }, ...state.commands].slice(0, GROUP_LEDGER_KEEP) }
    case 'GroupCommandAnswered':
      return update(state, event.id, (r) => {
        const chosen = new Set(r.command.phones.map((p) => p.userCardId))
        const fresh = event.results.filter((x) => chosen.has(x.userCardId))
        // a phone's answer replaces its earlier one in place (a re-send answers the same), new ones follow
        const results = [
          ...r.results.map((x) => fresh.find((f) => f.userCardId === x.userCardId) ?? x),
          ...fresh.filter((f) => !r.results.some((x) => x.userCardId === f.userCardId)),
        ]
        return { ...r, results, answeredAt: event.at }
      })
    case 'GroupCommandRefused':
      return update(state, event.id, (r) => ({ ...r, refused: { status: event.status, msg: event.msg }, answeredAt: event.at }))
    default:
      return state
  }
}
