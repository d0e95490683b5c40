// The core's persisted log of keyed writes (issue 40): a write is on disk, with its idempotency key, before it leaves,
// and leaves the log when the server's answer settled it. A core that starts finds what the last one left unanswered
// and sends it again with the same key (HttpPipeline.resumeWrites). Kept under one storage key; cleared on exit.
import * as Effect from 'effect/Effect'
import { StorageKey } from '../protocol/storage-keys.ts'
import type { StorageShape } from '../storage/storage.ts'

export interface PendingWrite {
  readonly key: string
  /** the account it was sent for: only that account's session sends it again. */
  readonly username: string
  readonly name: string
  readonly payload: unknown
  readonly channelCode: string | null
  readonly issuedAt: number
  /** the window closed without an answer: only "settle it as not applied" is sent from now on. */
  readonly abandoning: boolean
}

const isPendingWrite = (v: unknown): v is PendingWrite => {
  const w = v as Partial<PendingWrite> | null
  return typeof w === 'object' && w !== null && typeof w.key === 'string' && typeof w.username === 'string' && typeof w.name === 'string' &&
    typeof w.issuedAt === 'number' && typeof w.abandoning === 'boolean' && (w.channelCode === null || typeof w.channelCode === 'string')
}

export interface WriteLog {
  readonly get: (key: string) => PendingWrite | undefined
  readonly all: () => ReadonlyArray<PendingWrite>
  /** written to storage when the effect ends. */
  readonly put: (write: PendingWrite) => Effect.Effect<void>
  readonly settle: (key: string) => Effect.Effect<void>
}

export const loadWriteLog = (storage: StorageShape): Effect.Effect<WriteLog> =>
  Effect.gen(function* () {
    const stored = yield* storage.get(StorageKey.pendingWrites)
    const writes = new Map<string, PendingWrite>()
    if (Array.isArray(stored)) for (const w of stored) if (isPendingWrite(w)) writes.set(w.key, w)
    const save = Effect.suspend(() => storage.set(StorageKey.pendingWrites, [...writes.values()]))
    return {
      get: (key) => writes.get(key),
      all: () => [...writes.values()],
      put: (write) => Effect.suspend(() => {
        writes.set(write.key, write)
        return save
      }),
      settle: (key) => Effect.suspend(() => (writes.delete(key) ? save : Effect.void)),
    }
  })
