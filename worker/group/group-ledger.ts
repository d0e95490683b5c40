// Group control's ledger in the core (issue 23): a group command is recorded (GroupCommandIssued, in the persisted
// projection) before it is sent, and sent until the server has answered every phone of it. The server applies a
// command at most once per (command id, phone) and answers a re-send with what it stored (server/devices/group.ts),
// so sending again is always safe: after no reply (network, timeout, a server restarting: retried with a growing
// pause), and when a new core starts with commands the last one left unanswered (a killed SharedWorker). Every tab
// renders the same grid from the projection's `group` slice.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline, toCallResult } from '../http/http-pipeline.ts'
import type { CallResult, GroupCommandInput } from '../protocol/commands.ts'
import type { GroupCommand } from '../protocol/events.ts'
import { GROUP_ACTIONS, GROUP_COMMAND_ID } from '../protocol/group-rules.ts'
import { pendingPhones, type GroupCommandRecord } from '../protocol/projection/group.ts'
import { Background } from '../runtime/background.ts'
import { SessionState } from '../session/session-state.ts'
import { core as coreTexts } from '../texts.ts'


/** pauses between attempts that got no answer (the last one repeats). */
export const GROUP_RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const

/** no reply, or the server failing (HTTP 5xx) rather than refusing (a body status): the same command goes again later. */
const transient = (r: CallResult<unknown>): boolean => !r.ok && ((r.status === 0 && !r.silent) || (r.status >= 500 && r.status <= 599))

export interface GroupLedgerShape {
  /** records the command (once per id) and sends it; answers when it is recorded, not when it is answered. */
  readonly run: (input: GroupCommandInput) => Effect.Effect<CallResult<{ readonly id: string }>>
  /** sends every recorded command that has unanswered phones (the core's start). */
  readonly resume: Effect.Effect<void>
}

export class GroupLedger extends Context.Service<GroupLedger, GroupLedgerShape>()('cloud-phone/GroupLedger') {
  static readonly layer = Layer.effect(
    GroupLedger,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const session = yield* SessionState
      const background = yield* Background
      /** commands being sent by this core now (one sender per command). */
      const sending = new Set<string>()

      const recordOf = (id: string): GroupCommandRecord | undefined => hub.snapshot().group.commands.find((r) => r.command.id === id)

      const sendUntilAnswered = (id: string) =>
        Effect.gen(function* () {
          const { epoch } = session.current()
          for (let attempt = 0; ; attempt++) {
            const record = recordOf(id)
            if (record === undefined || session.current().epoch !== epoch) return
            const phones = pendingPhones(record)
            if (phones.length === 0) return
            const c = record.command
            const result = yield* toCallResult(http.request('groupCommand', {
              commandId: c.id, action: c.action, userCardIds: phones,
              ...(c.text !== null ? { text: c.text } : {}), ...(c.fileId !== null ? { fileId: c.fileId } : {}),
            }, coreCall))
            if (result.ok) {
              if (result.data !== false) hub.publish({ _tag: 'GroupCommandAnswered', id, results: result.data.results, at: Date.now() }, epoch)
              // answered phones leave the pending set; a phone the server did not answer (never) would be asked again
              if (result.data === false || pendingPhones(recordOf(id) ?? record).length === 0) return
            } else if (!transient(result)) {
              // the session ended meanwhile: its ledger went with it
              if (result.silent) return
              hub.publish({ _tag: 'GroupCommandRefused', id, status: result.status, msg: result.msg || coreTexts.serverError, at: Date.now() }, epoch)
              return
            }
            yield* Effect.sleep(GROUP_RETRY_MS[Math.min(attempt, GROUP_RETRY_MS.length - 1)]!)
          }
        }).pipe(Effect.ensuring(Effect.sync(() => sending.delete(id))))

      const send = (id: string) => {
        if (sending.has(id)) return
        sending.add(id)
        background.run(sendUntilAnswered(id))
      }

      const run = (input: GroupCommandInput) =>
        Effect.gen(function* () {
          // the tab is another thread, not trusted code: a malformed command is not recorded (the server checks the rest)
          const wellFormed = typeof input.id === 'string' && GROUP_COMMAND_ID.test(input.id) && (GROUP_ACTIONS as ReadonlyArray<unknown>).includes(input.action) &&
            Array.isArray(input.userCardIds) && input.userCardIds.length > 0 && input.userCardIds.every((n) => Number.isInteger(n) && n > 0)
          if (!wellFormed) return { ok: false, status: 1001, msg: coreTexts.serverError, silent: false } as const
          const { epoch, token } = session.current()
          if (token === null) return { ok: false, status: 401, msg: coreTexts.unauthorized, silent: false } as const
          if (recordOf(input.id) === undefined) {
            const names = new Map(hub.snapshot().devices.list.map((d) => [d.userCardId, d.diskName] as const))
            const ids = [...new Set(input.userCardIds)]
            const command: GroupCommand = {
              id: input.id, action: input.action,
              phones: ids.map((userCardId) => ({ userCardId, diskName: names.get(userCardId) ?? String(userCardId) })),
              text: input.text ?? null, fileId: input.fileId ?? null, fileName: input.fileName ?? null,
              retryOf: input.retryOf ?? null, issuedAt: Date.now(),
            }
            if (hub.publish({ _tag: 'GroupCommandIssued', command }, epoch) === null) {
              return { ok: false, status: 0, msg: '', silent: true } as const
            }
            // on disk before it leaves: a core killed while it is on its way finds it at its start and sends it again
            yield* hub.flushed
          }
          send(input.id)
          return { ok: true, data: { id: input.id } } as const
        })

      const resume = Effect.sync(() => {
        for (const record of hub.snapshot().group.commands) if (pendingPhones(record).length > 0) send(record.command.id)
      })

      return { run, resume }
    }),
  )
}
